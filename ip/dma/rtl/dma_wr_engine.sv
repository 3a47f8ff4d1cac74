// SPDX-License-Identifier: Apache-2.0
// DMA write engine: picks a channel whose FIFO holds a burst, writes it out beat by beat.
`default_nettype none

// When its burst stepper is free (idle, or the last beat is acknowledged now) the arbiter picks
// among the channels' registered offers and the burst is loaded; take_o tells the channel at once.
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

  logic          gnt_valid, take, free, busy, beat_ok, last;
  logic [CW-1:0] gnt, ch;
  logic [NumCh-1:0] gnt_1h;
  logic [1:0]    index;

  dma_arb #(.NumCh(NumCh)) u_arb (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .req_i    (elig_i),
    .prio_i   (prio_i),
    .take_i   (take),
    .valid_o  (gnt_valid),
    .gnt_1h_o (gnt_1h),
    .gnt_o    (gnt)
  );

  // The granted channel's offer: an AND-OR with the one-hot grant.
  logic [29:0] g_addr;
  logic [3:0]  g_n;
  logic        g_fixed;
  always_comb begin
    g_addr  = '0;
    g_n     = '0;
    g_fixed = 1'b0;
    for (int c = 0; c < NumCh; c++) begin
      g_n     = g_n | ({4{gnt_1h[c]}} & n_i[4*c +: 4]);
      g_addr  = g_addr | ({30{gnt_1h[c]}} & addr_i[30*c +: 30]);
      g_fixed = g_fixed | (gnt_1h[c] & fixed_i[c]);
    end
  end

  assign take = free && gnt_valid;

  dma_burst #(.CW(CW)) u_burst (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .take_i    (take),
    .ch_i      (gnt),
    .n_i       (g_n),
    .addr_i    (g_addr),
    .fixed_i   (g_fixed),
    .ack_i     (ack_i),
    .err_i     (err_i),
    .busy_o    (busy),
    .free_o    (free),
    .beat_ok_o (beat_ok),
    .last_o    (last),
    .ch_o      (ch),
    .addr_o    (addr_o),
    .beats_o   (beats_o),
    .index_o   (index),
    .fixed_o   (fixed_o),
    .burst_o   (burst_o)
  );

  always_comb begin
    take_o      = '0;
    beat_o      = '0;
    err_o       = '0;
    active_o    = '0;
    take_o      = take ? gnt_1h : '0;
    if (busy) begin
      active_o[ch] = 1'b1;
      err_o[ch]    = err_i;
      beat_o[ch]   = beat_ok;
    end
  end

  // The RAM is addressed with the read pointer of the next cycle (moved by this cycle's beat),
  // of the channel whose burst runs in the next cycle: the word is on the bus when it is needed.
  // Both pointers of each channel come from registers; the beat picks one at the end, so the
  // acknowledge is one multiplexer away from the RAM address.
  logic [CW-1:0]  rd_ch;
  logic [FAW-1:0] rd_ptr, rd_ptr1;
  logic           step;
  assign rd_ch = take ? gnt : ch;
  assign step  = beat_ok && (!take || gnt == ch);
  always_comb begin
    rd_ptr  = '0;
    rd_ptr1 = '0;
    for (int c = 0; c < NumCh; c++) begin
      if (rd_ch == CW'(c)) begin
        rd_ptr  = rptr_i[FAW*c +: FAW];
        rd_ptr1 = rptr_i[FAW*c +: FAW] + FAW'(1);
      end
    end
  end
  assign fifo_raddr_o = {rd_ch, step ? rd_ptr1 : rd_ptr};

  logic unused_index;
  assign unused_index = ^index;

  assign req_o  = busy;
  assign more_o = !last;
  assign prio_o = busy && bus_prio_i[ch];

  // Clock-gating hint: idle and no channel to grant, so no burst is taken (the arbiter's
  // round-robin state moves only with a take) and no beat or FIFO pop happens.
  assign idle_o = !busy && !gnt_valid;

endmodule

`default_nettype wire
