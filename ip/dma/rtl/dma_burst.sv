// SPDX-License-Identifier: Apache-2.0
// DMA burst stepper: one running burst of an engine (channel, beats, word address).
`default_nettype none

// Shared by the read and the write engine. take_i loads a burst (its first beat is requested in
// the next cycle); every acknowledge steps the address (unless fixed) and the beat counters; the
// last acknowledged beat or an error ends it. free_o says a new burst may be loaded this cycle:
// idle, or the last beat is acknowledged now, so bursts can follow back to back. Counters are
// registered (last_o is a compare with a constant), so free_o is two LUT levels from ack_i.
module dma_burst #(
  parameter int unsigned CW = 2
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          take_i,
  input  wire logic [CW-1:0] ch_i,
  input  wire logic [3:0]    n_i,       // beats, 1..8
  input  wire logic [29:0]   addr_i,
  input  wire logic          fixed_i,
  input  wire logic          ack_i,
  input  wire logic          err_i,
  output logic               busy_o,
  output logic               free_o,
  output logic               beat_ok_o, // a beat of the burst is acknowledged without error
  output logic               last_o,    // the current beat is the burst's last
  output logic [CW-1:0]      ch_o,
  output logic [29:0]        addr_o,
  output logic [3:0]         beats_o,   // beats left, the current one included
  output logic [1:0]         index_o,   // beats done before the current one, modulo 4
  output logic               fixed_o,
  output logic               burst_o    // more than one beat
);

  logic          busy_q, busy_d;
  logic [CW-1:0] ch_q, ch_d;
  logic [3:0]    left_q, left_d;
  logic [1:0]    idx_q, idx_d;
  logic [29:0]   addr_q, addr_d;
  logic          fixed_q, fixed_d, multi_q, multi_d;

  assign last_o    = (left_q == 4'd1);
  assign beat_ok_o = busy_q && ack_i && !err_i;
  assign free_o    = !busy_q || (beat_ok_o && last_o);

  always_comb begin
    busy_d  = busy_q;
    ch_d    = ch_q;
    left_d  = left_q;
    idx_d   = idx_q;
    addr_d  = addr_q;
    fixed_d = fixed_q;
    multi_d = multi_q;
    if (busy_q && err_i) begin
      busy_d = 1'b0;
    end else if (beat_ok_o) begin
      left_d = left_q - 4'd1;
      idx_d  = idx_q + 2'd1;
      if (!fixed_q) addr_d = addr_q + 30'd1;
      if (last_o) busy_d = 1'b0;
    end
    if (take_i) begin
      busy_d  = 1'b1;
      ch_d    = ch_i;
      left_d  = n_i;
      idx_d   = '0;
      addr_d  = addr_i;
      fixed_d = fixed_i;
      multi_d = (n_i != 4'd1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      ch_q    <= '0;
      left_q  <= 4'd1;
      idx_q   <= '0;
      addr_q  <= '0;
      fixed_q <= 1'b0;
      multi_q <= 1'b0;
    end else begin
      busy_q  <= busy_d;
      ch_q    <= ch_d;
      left_q  <= left_d;
      idx_q   <= idx_d;
      addr_q  <= addr_d;
      fixed_q <= fixed_d;
      multi_q <= multi_d;
    end
  end

  assign busy_o  = busy_q;
  assign ch_o    = ch_q;
  assign addr_o  = addr_q;
  assign beats_o = left_q;
  assign index_o = idx_q;
  assign fixed_o = fixed_q;
  assign burst_o = multi_q;

endmodule

`default_nettype wire
