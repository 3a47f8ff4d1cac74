// SPDX-License-Identifier: Apache-2.0
// Submodule of public_top: a register, a wire a test names and a wire it does not.
`default_nettype none

module public_sub (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic [7:0] a_i,
  output logic      [7:0] y_o
);
  logic [7:0] sum_q, named, hidden;
  assign named  = a_i + 8'd1;
  assign hidden = named ^ sum_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sum_q <= '0;
    end else begin
      sum_q <= hidden;
    end
  end

  assign y_o = sum_q;
endmodule

`default_nettype wire
