// SPDX-License-Identifier: Apache-2.0
// DMA write engine: picks a channel whose FIFO holds a burst, writes it out beat by beat.
`default_nettype none

// Its burst issue (dma_issue) picks among the channels' registered offers and loads the burst;
// take_o tells the channel at once.
// The FIFO RAM is addressed with that channel's head so the first word is on the bus when the
// burst starts. Each acknowledge pops a word; the RAM is then addressed one word ahead, so a slave
// that acknowledges every cycle gets a new word every cycle. A bus error ends the burst.
module dma_wr_engine #(
  parameter int unsigned NumCh     = 4,
  parameter int unsigned FifoDepth = 32,
  localparam int unsigned CW  = (NumCh > 1) ? $clog2(NumCh) : 1,
  localparam int unsigned FAW = $clog2(FifoDepth)
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,
  input  wire logic [NumCh-1:0]        elig_i,
  input  wire logic [NumCh*4-1:0]      n_i,
  input  wire logic [NumCh*30-1:0]     addr_i,
  input  wire logic [NumCh-1:0]        fixed_i,
  input  wire logic [NumCh*2-1:0]      prio_i,
  input  wire logic [NumCh-1:0]        bus_prio_i,
  input  wire logic [NumCh*FAW-1:0]    rptr_i,
  output logic [NumCh-1:0]             take_o,
  output logic [NumCh-1:0]             beat_o,
  output logic [NumCh-1:0]             err_o,
  output logic [NumCh-1:0]             active_o,
  // FIFO read port (data one cycle after the address).
  output logic [CW+FAW-1:0]            fifo_raddr_o,
  // Bus.
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

  dma_issue #(.NumCh(NumCh)) u_issue (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .offer_i    (elig_i),
    .n_i        (n_i),
    .addr_i     (addr_i),
    .fixed_i    (fixed_i),
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

  // A beat pops a word of the burst's channel.
  always_comb begin
    beat_o     = '0;
    beat_o[ch] = beat_ok;
  end

  // The RAM is addressed with the read pointer of the next cycle (moved by this cycle's beat),
  // of the channel whose burst runs in the next cycle: the word is on the bus when it is needed.
  // Each channel's next pointer comes from its register and the beat alone; the take then picks
  // the granted channel's with the one-hot grant (an AND-OR), so the arbiter is two levels from
  // the RAM address and the acknowledge is an increment and that selection away.
  logic [CW-1:0]               rd_ch;
  logic [NumCh-1:0][FAW-1:0]   nxt_ptr;
  logic [FAW-1:0]              gnt_ptr, cur_ptr;
  always_comb begin
    gnt_ptr = '0;
    cur_ptr = '0;
    for (int c = 0; c < NumCh; c++) begin
      nxt_ptr[c] = rptr_i[FAW*c +: FAW] + FAW'(beat_ok && ch == CW'(c));
      gnt_ptr    = gnt_ptr | ({FAW{gnt_1h[c]}} & nxt_ptr[c]);
      if (ch == CW'(c)) cur_ptr = nxt_ptr[c];
    end
  end
  assign rd_ch        = take ? gnt : ch;
  assign fifo_raddr_o = {rd_ch, take ? gnt_ptr : cur_ptr};

  logic unused;
  assign unused = ^{busy, last, index};

endmodule

`default_nettype wire
