// SPDX-License-Identifier: Apache-2.0
// DMA read engine: picks a channel, runs one read burst, fills its FIFO or loads its descriptor.
`default_nettype none

// Its burst issue (dma_issue) picks among the channels' registered offers (a data burst of n words
// at a word address, or a descriptor fetch at NEXT) and loads the burst; take_o tells the channel
// at once; the channel accounts for the words when the burst is taken, not as beats arrive, so
// its next offer needs no bus timing. Data beats go into the channel's FIFO
// segment, descriptor beats into its SRC/DST/LEN/NEXT registers. A bus error ends the burst at
// once and is reported to the channel; the engine is free again in the next cycle.
module dma_rd_engine #(
  parameter int unsigned NumCh     = 4,
  parameter int unsigned FifoDepth = 32,
  localparam int unsigned CW  = (NumCh > 1) ? $clog2(NumCh) : 1,
  localparam int unsigned FAW = $clog2(FifoDepth),
  localparam int unsigned DESC_WORDS = dma_pkg::DESC_WORDS
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,
  // Channels' offers (flattened, channel c at [c*W +: W]), all registered in the channel.
  input  wire logic [NumCh-1:0]        elig_i,
  input  wire logic [NumCh-1:0]        desc_i,
  input  wire logic [NumCh*4-1:0]      n_i,
  input  wire logic [NumCh*30-1:0]     addr_i,      // word address of the offered data burst
  input  wire logic [NumCh-1:0]        fixed_i,
  input  wire logic [NumCh*2-1:0]      prio_i,
  input  wire logic [NumCh-1:0]        bus_prio_i,
  input  wire logic [NumCh*32-1:0]     next_i,
  input  wire logic [NumCh*FAW-1:0]    wptr_i,
  output logic [NumCh-1:0]             take_o,      // this channel's offer is taken now
  output logic [NumCh-1:0]             beat_o,
  output logic [NumCh-1:0]             desc_done_o,
  output logic [NumCh-1:0]             err_o,
  output logic [NumCh-1:0]             active_o,
  output logic [NumCh*DESC_WORDS-1:0]  desc_we_o,
  // FIFO write port.
  output logic                         fifo_we_o,
  output logic [CW+FAW-1:0]            fifo_waddr_o,
  // Bus (bus-neutral: req held for the whole burst; more = another beat follows).
  output logic                         req_o,
  output logic [29:0]                  addr_o,
  output logic                         burst_o,
  output logic                         more_o,
  output logic [3:0]                   beats_o,     // beats left in the burst, this one included
  output logic                         fixed_o,
  output logic                         prio_o,
  input  wire logic                    ack_i,
  input  wire logic                    err_i,
  output logic                         idle_o       // no burst and none to take: nothing changes
);

  logic             take, busy, beat_ok, last;
  logic [CW-1:0]    gnt, ch;
  logic [NumCh-1:0] gnt_1h;
  logic [1:0]       index;
  logic             desc_q;

  // Each channel's offer as a burst: a descriptor fetch reads DESC_WORDS words at NEXT.
  logic [NumCh*4-1:0]  o_n;
  logic [NumCh*30-1:0] o_addr;
  logic [NumCh-1:0]    o_fixed;
  always_comb begin
    for (int c = 0; c < NumCh; c++) begin
      o_n[4*c +: 4]     = desc_i[c] ? 4'(DESC_WORDS) : n_i[4*c +: 4];
      o_addr[30*c +: 30] = desc_i[c] ? next_i[32*c + 2 +: 30] : addr_i[30*c +: 30];
      o_fixed[c]        = !desc_i[c] & fixed_i[c];
    end
  end

  dma_issue #(.NumCh(NumCh)) u_issue (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .offer_i    (elig_i | desc_i),
    .n_i        (o_n),
    .addr_i     (o_addr),
    .fixed_i    (o_fixed),
    .prio_i     (prio_i),
    .bus_prio_i (bus_prio_i),
    .take_o     (take),
    .gnt_o      (gnt),
    .gnt_1h_o   (gnt_1h),
    .take_1h_o  (take_o),
    .busy_o     (busy),
    .beat_ok_o  (beat_ok),
    .last_o     (last),
    .ch_o       (ch),
    .index_o    (index),
    .active_o   (active_o),
    .err_o      (err_o),
    .req_o      (req_o),
    .addr_o     (addr_o),
    .burst_o    (burst_o),
    .more_o     (more_o),
    .beats_o    (beats_o),
    .fixed_o    (fixed_o),
    .prio_o     (prio_o),
    .ack_i      (ack_i),
    .err_i      (err_i),
    .idle_o     (idle_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      desc_q <= 1'b0;
    end else if (take) begin
      desc_q <= |(gnt_1h & desc_i);
    end
  end

  // Data beats go to the FIFO, descriptor beats to the channel's descriptor registers.
  always_comb begin
    beat_o      = '0;
    desc_done_o = '0;
    desc_we_o   = '0;
    if (beat_ok) begin
      if (desc_q) begin
        desc_we_o[DESC_WORDS*ch + 32'(index)] = 1'b1;
        desc_done_o[ch] = last;
      end else begin
        beat_o[ch] = 1'b1;
      end
    end
  end

  assign fifo_we_o = beat_ok && !desc_q;
  logic [FAW-1:0] cur_wptr;
  always_comb begin
    cur_wptr = '0;
    for (int c = 0; c < NumCh; c++) begin
      if (ch == CW'(c)) cur_wptr = wptr_i[FAW*c +: FAW];
    end
  end
  assign fifo_waddr_o = {ch, cur_wptr};

  logic unused;
  assign unused = ^{gnt, busy};

endmodule

`default_nettype wire
