// A register stage with a deep combinational output beside it: the logic-depth test's design
// for outputs left open (Design.open_outputs), such as a block's simulation clock-gating hint.
module depth_hint (
  input  logic       clk_i,
  input  logic [7:0] d_i,
  output logic [7:0] q_o,
  output logic       hint_o
);
  logic [7:0] in_q, out_q;
  logic [7:0] chain [5];

  assign chain[0] = in_q;
  for (genvar i = 0; i < 4; i++) begin : gen_stage
    assign chain[i+1] = {chain[i][6:0], chain[i][7]} ^ (chain[i][7] ? 8'h1b : 8'h00) ^ (chain[i] + 8'(i));
  end

  always_ff @(posedge clk_i) begin
    in_q  <= d_i;
    out_q <= in_q;
  end
  assign q_o    = out_q;
  assign hint_o = ^chain[4];
endmodule
