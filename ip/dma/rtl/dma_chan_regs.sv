// SPDX-License-Identifier: Apache-2.0
// DMA channel registers: the external dma_chan regfile of dma.rdl (configuration, status, counters).
`default_nettype none

// Answers the generated register block's external-regfile interface in the cycle of its request.
// CTRL, FLOW, SRC, DST, LEN and NEXT ignore software writes while the channel is busy (the write
// is acknowledged and dropped); SRC, DST, LEN and NEXT are also loaded by descriptor fetches.
// Byte enables are honoured per byte lane. Offsets and fields follow dma.rdl (regfile dma_chan).
module dma_chan_regs #(
  parameter int unsigned FLW = 6,   // FIFO level width
  localparam int unsigned LEN_W  = dma_pkg::LEN_W,
  localparam int unsigned WLEN_W = dma_pkg::WLEN_W,
  localparam int unsigned CNT_W  = dma_pkg::CNT_W
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // External regfile interface of dma_reg (byte offset inside the channel's window).
  input  wire logic              req_i,
  input  wire logic [5:0]        addr_i,
  input  wire logic              req_is_wr_i,
  input  wire logic [31:0]       wr_data_i,
  input  wire logic [31:0]       wr_biten_i,
  output logic                   rd_ack_o,
  output logic                   wr_ack_o,
  output logic [31:0]            rd_data_o,
  // Channel state.
  input  wire logic              busy_i,
  input  wire logic [3:0]        desc_we_i,     // descriptor word 0 SRC, 1 DST, 2 LEN, 3 NEXT
  input  wire logic [31:0]       desc_data_i,
  input  wire logic              src_cred_i,
  input  wire logic              dst_cred_i,
  input  wire logic [3:0]        err_code_i,
  input  wire logic [FLW-1:0]    fifo_level_i,
  input  wire logic [WLEN_W-1:0] remain_i,
  input  wire logic [CNT_W-1:0]  cnt_cycles_i,
  input  wire logic [CNT_W-1:0]  cnt_wait_i,
  input  wire logic [CNT_W-1:0]  cnt_rd_i,
  input  wire logic [CNT_W-1:0]  cnt_wr_i,
  // Configuration.
  output logic [31:0]            ctrl_o,        // CTRL as laid out in dma.rdl
  output logic [7:0]             block_o,
  output logic [6:0]             fifo_limit_o,
  output logic [31:0]            src_o,
  output logic [31:0]            dst_o,
  output logic [LEN_W-1:0]       len_o,
  output logic [31:0]            next_o
);

  localparam logic [3:0] R_CTRL     = 4'd0;
  localparam logic [3:0] R_FLOW     = 4'd1;
  localparam logic [3:0] R_SRC      = 4'd2;
  localparam logic [3:0] R_DST      = 4'd3;
  localparam logic [3:0] R_LEN      = 4'd4;
  localparam logic [3:0] R_NEXT     = 4'd5;
  localparam logic [3:0] R_STATUS   = 4'd6;
  localparam logic [3:0] R_REMAIN   = 4'd7;
  localparam logic [3:0] R_CYCLES   = 4'd8;
  localparam logic [3:0] R_WAIT     = 4'd9;
  localparam logic [3:0] R_RD_BEATS = 4'd10;
  localparam logic [3:0] R_WR_BEATS = 4'd11;

  // Implemented bits of each writable register, and reset values.
  localparam logic [31:0] CTRL_MASK  = 32'h000F_F7FF;
  localparam logic [31:0] FLOW_MASK  = 32'h007F_00FF;
  localparam logic [31:0] LEN_MASK   = 32'h00FF_FFFF;
  localparam logic [31:0] FLOW_RESET = 32'h0000_0004;

  logic [3:0]  idx;
  logic        sw_wr;
  logic [31:0] ctrl_q, flow_q, src_q, dst_q, len_q, next_q;

  assign idx   = addr_i[5:2];
  assign sw_wr = req_i & req_is_wr_i & ~busy_i;

  logic [3:0] lane;   // byte lanes written
  assign lane = {wr_biten_i[24], wr_biten_i[16], wr_biten_i[8], wr_biten_i[0]};

  // Software writes per byte lane while idle; descriptor loads otherwise.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q <= '0;
      flow_q <= FLOW_RESET;
      src_q  <= '0;
      dst_q  <= '0;
      len_q  <= '0;
      next_q <= '0;
    end else begin
      for (int b = 0; b < 4; b++) begin
        if (sw_wr && lane[b] && idx == R_CTRL) begin
          ctrl_q[8*b +: 8] <= wr_data_i[8*b +: 8] & CTRL_MASK[8*b +: 8];
        end
        if (sw_wr && lane[b] && idx == R_FLOW) begin
          flow_q[8*b +: 8] <= wr_data_i[8*b +: 8] & FLOW_MASK[8*b +: 8];
        end
        if (sw_wr && lane[b] && idx == R_SRC) begin
          src_q[8*b +: 8] <= wr_data_i[8*b +: 8];
        end else if (desc_we_i[0]) begin
          src_q[8*b +: 8] <= desc_data_i[8*b +: 8];
        end
        if (sw_wr && lane[b] && idx == R_DST) begin
          dst_q[8*b +: 8] <= wr_data_i[8*b +: 8];
        end else if (desc_we_i[1]) begin
          dst_q[8*b +: 8] <= desc_data_i[8*b +: 8];
        end
        if (sw_wr && lane[b] && idx == R_LEN) begin
          len_q[8*b +: 8] <= wr_data_i[8*b +: 8] & LEN_MASK[8*b +: 8];
        end else if (desc_we_i[2]) begin
          len_q[8*b +: 8] <= desc_data_i[8*b +: 8] & LEN_MASK[8*b +: 8];
        end
        if (sw_wr && lane[b] && idx == R_NEXT) begin
          next_q[8*b +: 8] <= wr_data_i[8*b +: 8];
        end else if (desc_we_i[3]) begin
          next_q[8*b +: 8] <= desc_data_i[8*b +: 8];
        end
      end
    end
  end

  always_comb begin
    unique case (idx)
      R_CTRL:     rd_data_o = ctrl_q;
      R_FLOW:     rd_data_o = flow_q;
      R_SRC:      rd_data_o = src_q;
      R_DST:      rd_data_o = dst_q;
      R_LEN:      rd_data_o = len_q;
      R_NEXT:     rd_data_o = next_q;
      R_STATUS:   rd_data_o = {17'd0, 7'(fifo_level_i), err_code_i, 1'b0, dst_cred_i, src_cred_i,
                               busy_i};
      R_REMAIN:   rd_data_o = 32'(remain_i);
      R_CYCLES:   rd_data_o = cnt_cycles_i;
      R_WAIT:     rd_data_o = cnt_wait_i;
      R_RD_BEATS: rd_data_o = cnt_rd_i;
      R_WR_BEATS: rd_data_o = cnt_wr_i;
      default:    rd_data_o = '0;
    endcase
  end

  assign rd_ack_o = req_i & ~req_is_wr_i;
  assign wr_ack_o = req_i & req_is_wr_i;

  assign ctrl_o       = ctrl_q;
  assign block_o      = flow_q[7:0];
  assign fifo_limit_o = flow_q[22:16];
  assign src_o        = src_q;
  assign dst_o        = dst_q;
  assign len_o        = len_q[LEN_W-1:0];
  assign next_o       = next_q;

  logic unused;
  assign unused = ^{addr_i[1:0], wr_biten_i, len_q[31:LEN_W]};

endmodule

`default_nettype wire
