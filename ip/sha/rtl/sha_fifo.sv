// SPDX-License-Identifier: Apache-2.0
// Synchronous word FIFO with flush and a fill level (first-word fall-through).
`default_nettype none

module sha_fifo #(
  parameter int unsigned Depth = 16,
  parameter int unsigned Width = 32,
  localparam int unsigned LW = $clog2(Depth + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             flush_i,  // empty and zeroise
  input  wire logic             push_i,
  input  wire logic [Width-1:0] data_i,
  output logic                  full_o,
  input  wire logic             pop_i,
  output logic [Width-1:0]      data_o,
  output logic                  empty_o,
  output logic [LW-1:0]         level_o
);

  localparam int unsigned AW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0] mem_q [Depth];
  logic [AW-1:0]    rptr_q, wptr_q;
  logic [LW-1:0]    level_q;
  logic             do_push, do_pop;

  assign full_o  = level_q == LW'(Depth);
  assign empty_o = level_q == '0;
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && !empty_o;
  assign data_o  = mem_q[rptr_q];
  assign level_o = level_q;

  function automatic logic [AW-1:0] incr(logic [AW-1:0] p);
    incr = (p == AW'(Depth - 1)) ? '0 : p + AW'(1);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_q   <= '{default: '0};
      rptr_q  <= '0;
      wptr_q  <= '0;
      level_q <= '0;
    end else if (flush_i) begin
      mem_q   <= '{default: '0};
      rptr_q  <= '0;
      wptr_q  <= '0;
      level_q <= '0;
    end else begin
      if (do_push) begin
        mem_q[wptr_q] <= data_i;
        wptr_q        <= incr(wptr_q);
      end
      if (do_pop) rptr_q <= incr(rptr_q);
      level_q <= level_q + LW'(do_push) - LW'(do_pop);
    end
  end

endmodule

`default_nettype wire
