// SPDX-License-Identifier: Apache-2.0
// Per-slave arbiter: two priority classes with a grant budget, round-robin inside a class,
// one-hot grant.

`default_nettype none

module wb_xbar_arb #(
  parameter int unsigned NumReq = 2,
  // Grants the high class may take in a row while a low-class requester waits; the next
  // arbitration then goes to the low class. This bounds every requester's wait (README).
  parameter int unsigned PrioBudget = 8
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [NumReq-1:0] req_i,
  input  logic [NumReq-1:0] prio_i,
  // The caller used gnt_o this cycle: move the round-robin pointer past the winner.
  input  logic              advance_i,
  output logic [NumReq-1:0] gnt_o
);

  if (PrioBudget == 0) begin : gen_budget_check
    $error("wb_xbar_arb: PrioBudget must be at least 1");
  end

  localparam int unsigned CNT_W = (PrioBudget > 0) ? $clog2(PrioBudget + 1) : 1;
  localparam logic [CNT_W-1:0] CNT_LAST = CNT_W'(PrioBudget - 1);

  logic [NumReq-1:0] class_req, masked_req, pick_req, sel_any, sel_idle, rr_any, rr_idle;
  // Thermometer masks of the requesters after the last winner, one per class, so that grants
  // of one class never move the other class's turn.
  logic [NumReq-1:0] mask_hi_d, mask_hi_q, mask_lo_d, mask_lo_q, after_gnt;
  logic              any_hi, lo_wait, hi_won, found, seen;
  // hi_cnt_q: high-class grants in a row while a low-class requester waited; starve_q: it
  // reached PrioBudget. Both registered, so the arbitration only adds a registered select.
  logic [CNT_W-1:0]  hi_cnt_d, hi_cnt_q;
  logic              starve_d, starve_q;

  always_comb begin
    any_hi = |(req_i & prio_i);
    for (int unsigned i = 0; i < NumReq; i++) begin
      // From registers and the class inputs only: in the winning class whatever any_hi says
      // (high unless the budget is spent, low if it is), or only while no high-class master asks.
      // Each class has its own round-robin mask. After any_hi each bit is then one gate, as with
      // plain priority.
      sel_any[i]     = prio_i[i] ^ starve_q;
      sel_idle[i]    = !prio_i[i] && !starve_q;
      rr_any[i]      = prio_i[i] ? (!starve_q && mask_hi_q[i]) : (starve_q && mask_lo_q[i]);
      rr_idle[i]     = sel_idle[i] && mask_lo_q[i];
      class_req[i]   = req_i[i] && (sel_any[i] || (sel_idle[i] && !any_hi));
      masked_req[i]  = req_i[i] && (rr_any[i] || (rr_idle[i] && !any_hi));
    end
    // Nobody after the last winner: wrap around to the lowest index.
    pick_req = (|masked_req) ? masked_req : class_req;
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
    seen = 1'b0;
    for (int unsigned i = 0; i < NumReq; i++) begin
      after_gnt[i] = seen;
      seen         = seen | gnt_o[i];
    end
    hi_won    = |(gnt_o & prio_i);
    lo_wait   = |(req_i & ~prio_i);
    mask_hi_d = mask_hi_q;
    mask_lo_d = mask_lo_q;
    hi_cnt_d  = hi_cnt_q;
    if (!lo_wait) begin
      hi_cnt_d = '0;
    end
    // starve_d: hi_cnt_d reaches PrioBudget; decided from registers and the grant, so that no
    // compare follows the arbitration.
    starve_d  = lo_wait && starve_q;
    if (advance_i && |gnt_o) begin
      if (hi_won) begin
        mask_hi_d = after_gnt;
        // With starve_q set the high class cannot win, so the count stops at PrioBudget.
        if (lo_wait) begin
          hi_cnt_d = hi_cnt_q + 1'b1;
        end
        starve_d = lo_wait && (hi_cnt_q == CNT_LAST);
      end else begin
        mask_lo_d = after_gnt;
        hi_cnt_d  = '0;
        starve_d  = 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mask_hi_q <= '0;
      mask_lo_q <= '0;
      hi_cnt_q  <= '0;
      starve_q  <= 1'b0;
    end else begin
      mask_hi_q <= mask_hi_d;
      mask_lo_q <= mask_lo_d;
      hi_cnt_q  <= hi_cnt_d;
      starve_q  <= starve_d;
    end
  end

endmodule

`default_nettype wire
