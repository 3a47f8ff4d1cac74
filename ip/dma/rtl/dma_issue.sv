// SPDX-License-Identifier: Apache-2.0
// DMA burst issue: arbitration among the channels' offers and the running burst of one engine.
`default_nettype none

// Shared by the read and the write engine. When the burst stepper is free (idle, or the last
// beat is acknowledged now) the arbiter picks among the channels' registered offers (n words at
// a word address) and the burst is loaded, so bursts can follow back to back; take_1h_o tells
// the channel at once. The bus side holds req_o for the whole burst (more_o: another beat
// follows). A bus error ends the burst at once; active_o and err_o name the burst's channel.
module dma_issue #(
  parameter int unsigned NumCh = 4,
  localparam int unsigned CW = (NumCh > 1) ? $clog2(NumCh) : 1
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  // Channels' offers (flattened, channel c at [c*W +: W]), all registered in the channel.
  input  wire logic [NumCh-1:0]    offer_i,
  input  wire logic [NumCh*4-1:0]  n_i,
  input  wire logic [NumCh*30-1:0] addr_i,     // word address of the offered burst
  input  wire logic [NumCh-1:0]    fixed_i,
  input  wire logic [NumCh*2-1:0]  prio_i,
  input  wire logic [NumCh-1:0]    bus_prio_i,
  // Take: a burst is loaded now, of channel gnt_o (one-hot: gnt_1h_o; take_1h_o when taken).
  output logic                     take_o,
  output logic [CW-1:0]            gnt_o,
  output logic [NumCh-1:0]         gnt_1h_o,
  output logic [NumCh-1:0]         take_1h_o,
  // The running burst.
  output logic                     busy_o,
  output logic                     beat_ok_o,  // a beat is acknowledged without error
  output logic                     last_o,     // the current beat is the burst's last
  output logic [CW-1:0]            ch_o,
  output logic [1:0]               index_o,    // beats done before the current one, modulo 4
  output logic [NumCh-1:0]         active_o,   // this channel's burst runs
  output logic [NumCh-1:0]         err_o,      // this channel's burst ends with a bus error
  // Bus (bus-neutral).
  output logic                     req_o,
  output logic [29:0]              addr_o,
  output logic                     burst_o,
  output logic                     more_o,
  output logic [3:0]               beats_o,    // beats left in the burst, this one included
  output logic                     fixed_o,
  output logic                     prio_o,
  input  wire logic                ack_i,
  input  wire logic                err_i,
  output logic                     idle_o      // no burst and none to take: nothing changes
);

  logic gnt_valid, free;

  dma_arb #(.NumCh(NumCh)) u_arb (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .req_i    (offer_i),
    .prio_i   (prio_i),
    .take_i   (take_o),
    .valid_o  (gnt_valid),
    .gnt_1h_o (gnt_1h_o),
    .gnt_o    (gnt_o)
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
      g_n     = g_n | ({4{gnt_1h_o[c]}} & n_i[4*c +: 4]);
      g_addr  = g_addr | ({30{gnt_1h_o[c]}} & addr_i[30*c +: 30]);
      g_fixed = g_fixed | (gnt_1h_o[c] & fixed_i[c]);
    end
  end

  assign take_o    = free && gnt_valid;
  assign take_1h_o = take_o ? gnt_1h_o : '0;

  dma_burst #(.CW(CW)) u_burst (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .take_i    (take_o),
    .ch_i      (gnt_o),
    .n_i       (g_n),
    .addr_i    (g_addr),
    .fixed_i   (g_fixed),
    .ack_i     (ack_i),
    .err_i     (err_i),
    .busy_o    (busy_o),
    .free_o    (free),
    .beat_ok_o (beat_ok_o),
    .last_o    (last_o),
    .ch_o      (ch_o),
    .addr_o    (addr_o),
    .beats_o   (beats_o),
    .index_o   (index_o),
    .fixed_o   (fixed_o),
    .burst_o   (burst_o)
  );

  always_comb begin
    active_o = '0;
    err_o    = '0;
    if (busy_o) begin
      active_o[ch_o] = 1'b1;
      err_o[ch_o]    = err_i;
    end
  end

  assign req_o  = busy_o;
  assign more_o = !last_o;
  assign prio_o = busy_o && bus_prio_i[ch_o];

  // Clock-gating hint: idle and no channel to grant, so no burst is taken (the arbiter's
  // round-robin state moves only with a take).
  assign idle_o = !busy_o && !gnt_valid;

endmodule

`default_nettype wire
