// A chain of Stages dependent 8-bit S-box-like steps between two registers: the logic-depth
// test's known-deeper design (tests/test_logic_depth.py).
module depth_chain #(
  parameter int Stages = 1
) (
  input  logic       clk_i,
  input  logic [7:0] d_i,
  output logic [7:0] q_o
);
  logic [7:0] in_q, out_q;
  logic [7:0] chain [Stages+1];

  assign chain[0] = in_q;
  for (genvar i = 0; i < Stages; i++) begin : gen_stage
    // Rotate, multiply by x in GF(2^8) and mix: every output bit depends on several inputs.
    assign chain[i+1] = {chain[i][6:0], chain[i][7]} ^ (chain[i][7] ? 8'h1b : 8'h00) ^ (chain[i] + 8'(i));
  end

  always_ff @(posedge clk_i) begin
    in_q  <= d_i;
    out_q <= chain[Stages];
  end
  assign q_o = out_q;
endmodule
