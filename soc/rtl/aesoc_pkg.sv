// SPDX-License-Identifier: Apache-2.0
// aesoc memory map and bus indices, shared by the SoC top and documented in docs/ARCHITECTURE.md.
`default_nettype none

package aesoc_pkg;

  // Crossbar masters.
  localparam int unsigned M_CPU_I = 0;
  localparam int unsigned M_CPU_D = 1;
  localparam int unsigned M_DMA_RD = 2;
  localparam int unsigned M_DMA_WR = 3;
  localparam int unsigned NUM_MASTERS = 4;

  // Crossbar slaves, in decode order.
  localparam int unsigned S_SRAM0   = 0;
  localparam int unsigned S_SRAM1   = 1;
  localparam int unsigned S_SYSCTRL = 2;
  localparam int unsigned S_AES     = 3;
  localparam int unsigned S_FLASH   = 4;
  localparam int unsigned S_XIP     = 5;
  localparam int unsigned S_DMA     = 6;
  localparam int unsigned NUM_SLAVES = 7;

  // External interrupt lines.
  localparam int unsigned IRQ_BUS_ERR = 0;  // driven inside sysctrl
  localparam int unsigned IRQ_AES     = 1;
  localparam int unsigned IRQ_DMA     = 2;

  // DMA request lines (dma_wb req_i).
  localparam int unsigned DMA_REQ_AES_IN  = 0;  // AES input FIFO has room for a block
  localparam int unsigned DMA_REQ_AES_OUT = 1;  // AES result block ready
  localparam int unsigned DMA_NUM_REQ     = 2;

  // Bit 31 selects the core's uncached (IO) view, so memory masks ignore it: each memory answers
  // at its base and at base | 0x8000_0000.
  localparam logic [31:0] SRAM0_BASE   = 32'h0000_0000;
  localparam logic [31:0] SRAM1_BASE   = 32'h1000_0000;
  localparam logic [31:0] FLASH_BASE   = 32'h2000_0000;
  localparam logic [31:0] SYSCTRL_BASE = 32'hF000_0000;
  localparam logic [31:0] AES_BASE     = 32'hF000_1000;
  localparam logic [31:0] DMA_BASE     = 32'hF000_2000;
  localparam logic [31:0] XIP_BASE     = 32'hF000_3000;
  localparam logic [31:0] PERIPH_MASK  = 32'hFFFF_F000;  // 4 KB per peripheral
  localparam logic [31:0] UNCACHED_BIT = 32'h8000_0000;

  // Decode mask for a memory of `bytes` (a power of two) that ignores the uncached bit.
  function automatic logic [31:0] mem_mask(int unsigned bytes);
    return ~(32'(bytes) - 32'd1) & ~UNCACHED_BIT;
  endfunction

endpackage

`default_nettype wire
