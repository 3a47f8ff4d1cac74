// SPDX-License-Identifier: Apache-2.0
// Per-slave arbiter: two priority classes, round-robin inside a class, one-hot grant.

`default_nettype none

module wb_xbar_arb #(
  parameter int unsigned NumReq = 2
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [NumReq-1:0] req_i,
  input  logic [NumReq-1:0] prio_i,
  // The caller used gnt_o this cycle: move the round-robin pointer past the winner.
  input  logic              advance_i,
  output logic [NumReq-1:0] gnt_o
);

  logic [NumReq-1:0] class_req, masked_req, pick_req;
  // Thermometer mask of the requesters that come after the last winner.
  logic [NumReq-1:0] mask_d, mask_q;
  logic              found, seen;

  always_comb begin
    class_req  = (|(req_i & prio_i)) ? (req_i & prio_i) : req_i;
    masked_req = class_req & mask_q;
    // Nobody after the last winner: wrap around to the lowest index.
    pick_req   = (|masked_req) ? masked_req : class_req;
  end

  always_comb begin
    found = 1'b0;
    gnt_o = '0;
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (pick_req[i] && !found) begin
        gnt_o[i] = 1'b1;
        found    = 1'b1;
      end
    end
  end

  always_comb begin
    seen   = 1'b0;
    mask_d = mask_q;
    if (advance_i && |gnt_o) begin
      for (int unsigned i = 0; i < NumReq; i++) begin
        mask_d[i] = seen;
        seen      = seen | gnt_o[i];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mask_q <= '0;
    end else begin
      mask_q <= mask_d;
    end
  end

endmodule

`default_nettype wire
