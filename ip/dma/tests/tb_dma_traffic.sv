// SPDX-License-Identifier: Apache-2.0
// DMA testbench traffic master: back-to-back classic reads of one memory while enabled.
`default_nettype none

module tb_dma_traffic (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        en_i,
  input  wire logic [29:0] base_i,
  output logic             cyc_o,
  output logic             stb_o,
  output logic [29:0]      adr_o,
  input  wire logic        ack_i,
  input  wire logic        err_i,
  output logic [31:0]      beats_o
);

  logic [7:0]  off_q;
  logic [31:0] beats_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      off_q   <= '0;
      beats_q <= '0;
    end else if (cyc_o && (ack_i || err_i)) begin
      off_q   <= off_q + 8'd1;
      beats_q <= beats_q + 32'd1;
    end
  end

  assign cyc_o   = en_i;
  assign stb_o   = en_i;
  assign adr_o   = base_i + 30'(off_q);
  assign beats_o = beats_q;

endmodule

`default_nettype wire
