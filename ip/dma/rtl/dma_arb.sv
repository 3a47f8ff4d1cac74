// SPDX-License-Identifier: Apache-2.0
// DMA burst arbiter: highest channel priority first, round-robin among equal priorities.
`default_nettype none

// Combinational grant among the requesting channels. Only channels of the highest requested
// priority compete; among them the search starts after the last channel granted, so equal
// priorities share an engine burst by burst. take_i records the grant as the last winner.
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
  output logic [CW-1:0]           gnt_o
);

  logic [CW-1:0]    last_q;
  logic [1:0]       top;
  logic [NumCh-1:0] cand;

  always_comb begin
    top = 2'd0;
    for (int c = 0; c < NumCh; c++) begin
      if (req_i[c] && prio_i[2*c +: 2] > top) top = prio_i[2*c +: 2];
    end
    for (int c = 0; c < NumCh; c++) begin
      cand[c] = req_i[c] && (prio_i[2*c +: 2] == top);
    end
  end

  always_comb begin
    int unsigned idx;
    valid_o = 1'b0;
    gnt_o   = '0;
    for (int unsigned k = 1; k <= NumCh; k++) begin
      idx = 32'(last_q) + k;
      if (idx >= NumCh) idx = idx - NumCh;
      if (!valid_o && cand[idx]) begin
        valid_o = 1'b1;
        gnt_o   = CW'(idx);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= CW'(NumCh - 1);
    end else if (take_i && valid_o) begin
      last_q <= gnt_o;
    end
  end

endmodule

`default_nettype wire
