// SPDX-License-Identifier: Apache-2.0
// DMA controller: shared encodings (address modes, burst lengths, error codes, channel states).
`default_nettype none

package dma_pkg;

  // Address modes (CHn_CTRL.SRC_MODE / DST_MODE).
  localparam logic [1:0] AM_INC   = 2'd0;  // next word after each beat
  localparam logic [1:0] AM_FIXED = 2'd1;  // same word every beat (peripheral data register)
  localparam logic [1:0] AM_WRAP  = 2'd2;  // increment, back to the start after BLOCK words

  // Burst lengths (CHn_CTRL.BURST).
  localparam logic [1:0] BL_1 = 2'd0;
  localparam logic [1:0] BL_4 = 2'd1;
  localparam logic [1:0] BL_8 = 2'd2;

  // Error codes (CHn_STATUS.ERR). The first one found stops the channel.
  localparam logic [3:0] ERR_NONE       = 4'd0;
  localparam logic [3:0] ERR_ZERO_LEN   = 4'd1;   // LEN is 0
  localparam logic [3:0] ERR_ADDR_ALIGN = 4'd2;   // SRC or DST not word aligned
  localparam logic [3:0] ERR_LEN_ALIGN  = 4'd3;   // LEN not a multiple of 4
  localparam logic [3:0] ERR_SRC_RANGE  = 4'd4;   // source extent outside every window
  localparam logic [3:0] ERR_DST_RANGE  = 4'd5;   // destination extent outside every window
  localparam logic [3:0] ERR_RD_BUS     = 4'd6;   // bus error on a data read
  localparam logic [3:0] ERR_WR_BUS     = 4'd7;   // bus error on a data write
  localparam logic [3:0] ERR_DESC_ADDR  = 4'd8;   // NEXT misaligned or outside every window
  localparam logic [3:0] ERR_DESC_BUS   = 4'd9;   // bus error while fetching a descriptor
  localparam logic [3:0] ERR_CFG        = 4'd10;  // invalid CTRL/FLOW combination
  localparam logic [3:0] ERR_ABORT      = 4'd11;  // stopped by CMD.ABORT

  // Descriptor words, in memory order at NEXT: SRC, DST, LEN, NEXT.
  localparam int unsigned DESC_WORDS = 4;

  // Field widths.
  localparam int unsigned LEN_W  = 24;         // CHn_LEN in bytes
  localparam int unsigned WLEN_W = LEN_W - 2;  // the same in words
  localparam int unsigned BLK_W  = 8;          // CHn_FLOW.BLOCK
  localparam int unsigned LIM_W  = 7;          // CHn_FLOW.FIFO_LIMIT
  localparam int unsigned CNT_W  = 32;         // performance counters

  // Words per burst for a BURST encoding (0 for the reserved encoding).
  function automatic logic [3:0] burst_words(logic [1:0] burst);
    unique case (burst)
      BL_1:    burst_words = 4'd1;
      BL_4:    burst_words = 4'd4;
      BL_8:    burst_words = 4'd8;
      default: burst_words = 4'd0;
    endcase
  endfunction

endpackage

`default_nettype wire
