// SPDX-License-Identifier: Apache-2.0
// DMA burst arbiter: highest channel priority first, round-robin among equal priorities.
`default_nettype none

// Combinational grant among the requesting channels. Only channels of the highest requested
// priority compete; among them the search starts after the last channel granted, so equal
// priorities share an engine burst by burst. take_i records the grant as the last winner.
//
// The order between every two channels (over_q[d][c]: d wins over c when both ask) depends only
// on the priorities and the last winner, so it is registered: the grant is then one AND-OR of
// the requests (two LUT levels), not a priority search. It follows a priority change one cycle
// late (CTRL.PRIO is written only while the channel is idle, so no burst sees the old order).
module dma_arb #(
  parameter int unsigned NumCh = 4,
  localparam int unsigned CW = (NumCh > 1) ? $clog2(NumCh) : 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  input  wire logic [NumCh-1:0]   req_i,
  input  wire logic [NumCh*2-1:0] prio_i,
  input  wire logic               take_i,
  output logic                    valid_o,
  output logic [NumCh-1:0]        gnt_1h_o,  // the grant, one-hot (0 without requests)
  output logic [CW-1:0]           gnt_o
);

  logic [CW-1:0]                last_q, last_d;
  logic [NumCh-1:0][NumCh-1:0]  over_q, over_d;

  // Search position after the last winner: 0 for the channel right after it.
  function automatic int unsigned rr_pos(int unsigned c, logic [CW-1:0] last);
    int unsigned p;
    p = c + NumCh - 1 - 32'(last);
    if (p >= NumCh) p = p - NumCh;
    if (p >= NumCh) p = p - NumCh;
    return p;
  endfunction

  assign last_d = (take_i && valid_o) ? gnt_o : last_q;

  always_comb begin
    for (int unsigned d = 0; d < NumCh; d++) begin
      for (int unsigned c = 0; c < NumCh; c++) begin
        over_d[d][c] = (d != c) &&
                       ((prio_i[2*d +: 2] > prio_i[2*c +: 2]) ||
                        ((prio_i[2*d +: 2] == prio_i[2*c +: 2]) && (rr_pos(d, last_d) < rr_pos(c, last_d))));
      end
    end
  end

  always_comb begin
    gnt_1h_o = '0;
    gnt_o    = '0;
    for (int unsigned c = 0; c < NumCh; c++) begin
      logic beaten;
      beaten = 1'b0;
      for (int unsigned d = 0; d < NumCh; d++) begin
        beaten = beaten | (req_i[d] & over_q[d][c]);
      end
      gnt_1h_o[c] = req_i[c] & ~beaten;
    end
    for (int unsigned c = 0; c < NumCh; c++) begin
      if (gnt_1h_o[c]) gnt_o = gnt_o | CW'(c);
    end
  end
  assign valid_o = |req_i;

  // Reset order: equal priorities, last winner NumCh-1, so channel 0 first.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= CW'(NumCh - 1);
      for (int unsigned d = 0; d < NumCh; d++) begin
        for (int unsigned c = 0; c < NumCh; c++) begin
          over_q[d][c] <= (d < c);
        end
      end
    end else begin
      last_q <= last_d;
      over_q <= over_d;
    end
  end

endmodule

`default_nettype wire
