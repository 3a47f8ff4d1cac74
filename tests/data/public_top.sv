// SPDX-License-Identifier: Apache-2.0
// Test design of tests/test_cocotb_flow.py: which signals a block-test model makes public.
`default_nettype none

module public_top (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic [7:0] a_i,
  output logic      [7:0] y_o
);
  logic [7:0] top_wire;
  assign top_wire = a_i ^ 8'h5A;

  public_sub u_sub (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .a_i    (top_wire),
    .y_o    (y_o)
  );
endmodule

`default_nettype wire
