// SPDX-License-Identifier: Apache-2.0
// DMA setup checker: alignment, length and address-window checks of a transfer or descriptor.
`default_nettype none

// Purely combinational, shared by all channels (one check per cycle). A transfer passes when
// LEN is a non-zero multiple of 4, SRC and DST are word aligned and each side's whole extent
// (LEN bytes when incrementing, one word when fixed, min(LEN, 4*BLOCK) when wrapping) lies in
// one address window. A descriptor passes when NEXT is word aligned and its four words lie in
// one window. Windows are naturally aligned powers of two; a window of size 0 is unused.
module dma_range_check #(
  parameter int unsigned         NumWin  = 1,
  parameter logic [NumWin*32-1:0] WinBase = '0,
  parameter logic [NumWin*32-1:0] WinSize = '0,
  localparam int unsigned LEN_W      = dma_pkg::LEN_W,
  localparam int unsigned BLK_W      = dma_pkg::BLK_W,
  localparam int unsigned DESC_WORDS = dma_pkg::DESC_WORDS
) (
  input  wire logic              desc_i,
  input  wire logic [31:0]       src_i,
  input  wire logic [31:0]       dst_i,
  input  wire logic [LEN_W-1:0]  len_i,
  input  wire logic [1:0]        src_mode_i,
  input  wire logic [1:0]        dst_mode_i,
  input  wire logic [BLK_W-1:0]  block_i,
  input  wire logic [31:0]       next_i,
  output logic [3:0]             code_o
);

  localparam logic [1:0] AM_FIXED       = dma_pkg::AM_FIXED;
  localparam logic [1:0] AM_WRAP        = dma_pkg::AM_WRAP;
  localparam logic [3:0] ERR_NONE       = dma_pkg::ERR_NONE;
  localparam logic [3:0] ERR_ZERO_LEN   = dma_pkg::ERR_ZERO_LEN;
  localparam logic [3:0] ERR_ADDR_ALIGN = dma_pkg::ERR_ADDR_ALIGN;
  localparam logic [3:0] ERR_LEN_ALIGN  = dma_pkg::ERR_LEN_ALIGN;
  localparam logic [3:0] ERR_SRC_RANGE  = dma_pkg::ERR_SRC_RANGE;
  localparam logic [3:0] ERR_DST_RANGE  = dma_pkg::ERR_DST_RANGE;
  localparam logic [3:0] ERR_DESC_ADDR  = dma_pkg::ERR_DESC_ADDR;

  // Bytes touched minus one, for one side of a transfer.
  function automatic logic [31:0] extent_m1(logic [1:0] mode, logic [LEN_W-1:0] len,
                                            logic [BLK_W-1:0] block);
    logic [31:0] blk_bytes, len_bytes;
    blk_bytes = {22'd0, block, 2'b00};
    len_bytes = 32'(len);
    unique case (mode)
      AM_FIXED: extent_m1 = 32'd3;
      AM_WRAP:  extent_m1 = ((len_bytes < blk_bytes) ? len_bytes : blk_bytes) - 32'd1;
      default:  extent_m1 = len_bytes - 32'd1;
    endcase
  endfunction

  // [start, start + extent - 1] inside one window, for the descriptor and both sides.
  logic [32:0]       desc_stop, src_stop, dst_stop;
  logic [NumWin-1:0] desc_hit, src_hit, dst_hit;
  logic              desc_ok, src_ok, dst_ok;

  assign desc_stop = {1'b0, next_i} + 33'(4 * DESC_WORDS - 1);
  assign src_stop  = {1'b0, src_i} + {1'b0, extent_m1(src_mode_i, len_i, block_i)};
  assign dst_stop  = {1'b0, dst_i} + {1'b0, extent_m1(dst_mode_i, len_i, block_i)};

  for (genvar w = 0; w < NumWin; w++) begin : gen_win
    localparam logic [31:0] BASE = WinBase[32*w +: 32];
    localparam logic [31:0] SIZE = WinSize[32*w +: 32];
    localparam logic [31:0] MASK = ~(SIZE - 32'd1);
    localparam bit          USED = (SIZE != 32'd0);
    assign desc_hit[w] = USED && ((next_i & MASK) == BASE) && ((desc_stop[31:0] & MASK) == BASE);
    assign src_hit[w]  = USED && ((src_i & MASK) == BASE) && ((src_stop[31:0] & MASK) == BASE);
    assign dst_hit[w]  = USED && ((dst_i & MASK) == BASE) && ((dst_stop[31:0] & MASK) == BASE);
  end

  assign desc_ok = (|desc_hit) && !desc_stop[32];
  assign src_ok  = (|src_hit) && !src_stop[32];
  assign dst_ok  = (|dst_hit) && !dst_stop[32];

  always_comb begin
    code_o = ERR_NONE;
    if (desc_i) begin
      if (next_i[1:0] != 2'b00 || !desc_ok) begin
        code_o = ERR_DESC_ADDR;
      end
    end else if (len_i == '0) begin
      code_o = ERR_ZERO_LEN;
    end else if (src_i[1:0] != 2'b00 || dst_i[1:0] != 2'b00) begin
      code_o = ERR_ADDR_ALIGN;
    end else if (len_i[1:0] != 2'b00) begin
      code_o = ERR_LEN_ALIGN;
    end else if (!src_ok) begin
      code_o = ERR_SRC_RANGE;
    end else if (!dst_ok) begin
      code_o = ERR_DST_RANGE;
    end
  end

endmodule

`default_nettype wire
