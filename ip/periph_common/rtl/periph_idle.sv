// SPDX-License-Identifier: Apache-2.0
// Clock-gating hint of a register-mapped peripheral: idle_o is 1 only when the next clock edge
// would change none of its registers (ip/clock_gate stops the block's clock in simulation).
`default_nettype none

// The register-port part every peripheral shares: a request changes registers at its own edge,
// and the edge after it too (singlepulse CMD fields clear and act, write side effects settle), so
// neither the request cycle nor the one after is idle. quiet_i is the rest of the promise, the
// block's own: no outstanding access, no command pending, its engine at rest.
module periph_idle (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic reg_req_i,
  input  wire logic quiet_i,
  output logic      idle_o
);

  logic reg_req_q;  // a register request in the last cycle

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_req_q <= 1'b0;
    end else begin
      reg_req_q <= reg_req_i;
    end
  end

  assign idle_o = ~reg_req_i & ~reg_req_q & quiet_i;

endmodule

`default_nettype wire
