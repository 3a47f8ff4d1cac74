// SPDX-License-Identifier: Apache-2.0
// DMA setup checker: alignment, length and address-window checks of a transfer or descriptor.
`default_nettype none

// Shared by all channels, one check at a time, in two registered stages so that no address
// arithmetic is chained with another: (1) each side's extent and its start minus one are
// computed, (2) they are added (the last byte) and both ends are compared with the windows; done_o and code_o come two cycles after
// start_i. A transfer passes when LEN is a non-zero multiple of
// 4, SRC and DST are word aligned and each side's whole extent (LEN bytes when incrementing, one
// word when fixed, min(LEN, 4*BLOCK) when wrapping) lies in one address window. A descriptor
// passes when NEXT is word aligned and its four words lie in one window. Windows are naturally
// aligned powers of two; a window of size 0 is unused.
module dma_range_check #(
  parameter int unsigned         NumWin  = 1,
  parameter logic [NumWin*32-1:0] WinBase = '0,
  parameter logic [NumWin*32-1:0] WinSize = '0,
  localparam int unsigned LEN_W      = dma_pkg::LEN_W,
  localparam int unsigned BLK_W      = dma_pkg::BLK_W,
  localparam int unsigned DESC_WORDS = dma_pkg::DESC_WORDS
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              start_i,
  input  wire logic              desc_i,
  input  wire logic [31:0]       src_i,
  input  wire logic [31:0]       dst_i,
  input  wire logic [LEN_W-1:0]  len_i,
  input  wire logic [1:0]        src_mode_i,
  input  wire logic [1:0]        dst_mode_i,
  input  wire logic [BLK_W-1:0]  block_i,
  input  wire logic [31:0]       next_i,
  output logic                   done_o,
  output logic [3:0]             code_o
);

  import dma_pkg::*;

  // Bytes touched, for one side of a transfer.
  function automatic logic [31:0] extent(logic [1:0] mode, logic [LEN_W-1:0] len,
                                         logic [BLK_W-1:0] block);
    logic [31:0] blk_bytes, len_bytes;
    blk_bytes = {22'd0, block, 2'b00};
    len_bytes = 32'(len);
    unique case (mode)
      AM_FIXED: extent = 32'd4;
      AM_WRAP:  extent = (len_bytes < blk_bytes) ? len_bytes : blk_bytes;
      default:  extent = len_bytes;
    endcase
  endfunction

  // ---- stage 1: extents and the checks that need no window ----
  // For a descriptor the source side carries NEXT and its 16 bytes.
  logic        v1_q, desc1_q;
  logic [31:0] a1_q, b1_q, ea1_q, eb1_q;
  logic [33:0] am1_q, bm1_q;    // start - 1, so stage 2 adds only the extent
  logic [3:0]  early1_q, early_d;

  always_comb begin
    early_d = ERR_NONE;
    if (desc_i) begin
      if (next_i[1:0] != 2'b00) early_d = ERR_DESC_ADDR;
    end else if (len_i == '0) begin
      early_d = ERR_ZERO_LEN;
    end else if (src_i[1:0] != 2'b00 || dst_i[1:0] != 2'b00) begin
      early_d = ERR_ADDR_ALIGN;
    end else if (len_i[1:0] != 2'b00) begin
      early_d = ERR_LEN_ALIGN;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v1_q     <= 1'b0;
      desc1_q  <= 1'b0;
      a1_q     <= '0;
      b1_q     <= '0;
      ea1_q    <= '0;
      eb1_q    <= '0;
      am1_q    <= '0;
      bm1_q    <= '0;
      early1_q <= ERR_NONE;
    end else begin
      v1_q <= start_i;
      if (start_i) begin
        desc1_q  <= desc_i;
        a1_q     <= desc_i ? next_i : src_i;
        b1_q     <= dst_i;
        ea1_q    <= desc_i ? 32'(4 * DESC_WORDS) : extent(src_mode_i, len_i, block_i);
        eb1_q    <= extent(dst_mode_i, len_i, block_i);
        am1_q    <= {2'b00, desc_i ? next_i : src_i} - 34'd1;
        bm1_q    <= {2'b00, dst_i} - 34'd1;
        early1_q <= early_d;
      end
    end
  end

  // ---- stage 2: [start, start + extent - 1] inside one window ----
  // An extent of 0 (LEN = 0) is an early error; otherwise the last byte is below 2^33.
  logic [33:0]       a_stop, b_stop;
  logic [NumWin-1:0] a_hit, b_hit;
  logic              a_ok, b_ok;
  logic [3:0]        code_d;

  assign a_stop = am1_q + {2'b00, ea1_q};
  assign b_stop = bm1_q + {2'b00, eb1_q};

  for (genvar w = 0; w < NumWin; w++) begin : gen_win
    localparam logic [31:0] BASE = WinBase[32*w +: 32];
    localparam logic [31:0] SIZE = WinSize[32*w +: 32];
    localparam logic [31:0] MASK = ~(SIZE - 32'd1);
    localparam bit          USED = (SIZE != 32'd0);
    assign a_hit[w] = USED && ((a1_q & MASK) == BASE) && ((a_stop[31:0] & MASK) == BASE);
    assign b_hit[w] = USED && ((b1_q & MASK) == BASE) && ((b_stop[31:0] & MASK) == BASE);
  end

  assign a_ok = (|a_hit) && (a_stop[33:32] == 2'b00);
  assign b_ok = (|b_hit) && (b_stop[33:32] == 2'b00);

  always_comb begin
    code_d = early1_q;
    if (early1_q == ERR_NONE) begin
      if (desc1_q) begin
        if (!a_ok) code_d = ERR_DESC_ADDR;
      end else if (!a_ok) begin
        code_d = ERR_SRC_RANGE;
      end else if (!b_ok) begin
        code_d = ERR_DST_RANGE;
      end
    end
  end

  logic       v2_q;
  logic [3:0] code2_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v2_q    <= 1'b0;
      code2_q <= ERR_NONE;
    end else begin
      v2_q <= v1_q;
      if (v1_q) code2_q <= code_d;
    end
  end

  assign done_o = v2_q;
  assign code_o = code2_q;

endmodule

`default_nettype wire
