// SPDX-License-Identifier: Apache-2.0
// DMA testbench peripheral: AES-like block FIFOs with held ACKs and DMA request lines.
`default_nettype none

// Word offsets: 0..3 IN0..IN3 (writing IN3 queues the block; held while the input FIFO is full),
// 4..7 OUT0..OUT3 (held while no result; reading OUT3 releases the block), 8 STREAM (a write
// appends to a log, a read returns a running sequence number), 9 LOG_COUNT. A block takes
// latency_i cycles in the "engine", which XORs every word with 0x5A5A5A5A. ACK comes in the
// cycle of STB when the access can complete. in_req_o/out_req_o update in the cycle after the
// access that changes them, as on the AES peripheral.
module tb_dma_periph #(
  parameter int unsigned Depth   = 2,
  parameter int unsigned LogWords = 1024
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        wb_cyc_i,
  input  wire logic        wb_stb_i,
  input  wire logic        wb_we_i,
  input  wire logic [29:0] wb_adr_i,
  input  wire logic [31:0] wb_dat_i,
  output logic [31:0]      wb_dat_o,
  output logic             wb_ack_o,
  output logic             wb_err_o,
  input  wire logic        in_en_i,
  input  wire logic        out_en_i,
  input  wire logic [7:0]  latency_i,
  output logic             in_req_o,
  output logic             out_req_o,
  output logic [31:0]      blocks_o
);

  localparam int unsigned LW = $clog2(LogWords);
  localparam int unsigned DW = $clog2(Depth + 1);

  logic [127:0] in_fifo_q  [Depth];
  logic [127:0] out_fifo_q [Depth];
  logic [DW-1:0] in_cnt_q, out_cnt_q;
  logic [31:0]  stage_q [3];
  logic [31:0]  log_q [LogWords] /* verilator public_flat_rw */;
  logic [LW:0]  log_cnt_q;
  logic [31:0]  seq_q;
  logic [127:0] eng_q;
  logic         eng_busy_q;
  logic [7:0]   eng_cnt_q;
  logic [31:0]  blocks_q;

  logic req;
  logic [3:0] reg_idx;
  logic in_full, out_full, in_empty, out_empty;
  logic in_push, in_pop, out_push, out_pop;

  assign req       = wb_cyc_i & wb_stb_i;
  assign reg_idx   = wb_adr_i[3:0];
  assign in_full   = (in_cnt_q == DW'(Depth));
  assign out_full  = (out_cnt_q == DW'(Depth));
  assign in_empty  = (in_cnt_q == '0);
  assign out_empty = (out_cnt_q == '0);

  logic ok;
  always_comb begin
    ok = 1'b1;
    if (wb_we_i && reg_idx == 4'd3) ok = ~in_full;
    if (!wb_we_i && reg_idx >= 4'd4 && reg_idx <= 4'd7) ok = ~out_empty;
  end

  assign wb_ack_o = req & ok & (reg_idx <= 4'd9);
  assign wb_err_o = req & (reg_idx > 4'd9);

  always_comb begin
    wb_dat_o = '0;
    if (reg_idx >= 4'd4 && reg_idx <= 4'd7) begin
      wb_dat_o = out_fifo_q[0][32*(7 - 32'(reg_idx)) +: 32];
    end else if (reg_idx == 4'd8) begin
      wb_dat_o = seq_q;
    end else if (reg_idx == 4'd9) begin
      wb_dat_o = 32'(log_cnt_q);
    end
  end

  assign in_push  = wb_ack_o & wb_we_i & (reg_idx == 4'd3);
  assign out_pop  = wb_ack_o & ~wb_we_i & (reg_idx == 4'd7);
  assign in_pop   = ~eng_busy_q & ~in_empty;
  assign out_push = eng_busy_q & (eng_cnt_q == '0) & ~out_full;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_cnt_q   <= '0;
      out_cnt_q  <= '0;
      log_cnt_q  <= '0;
      seq_q      <= 32'h1000_0000;
      eng_busy_q <= 1'b0;
      eng_cnt_q  <= '0;
      eng_q      <= '0;
      blocks_q   <= '0;
      for (int i = 0; i < 3; i++) stage_q[i] <= '0;
      for (int i = 0; i < int'(Depth); i++) begin
        in_fifo_q[i]  <= '0;
        out_fifo_q[i] <= '0;
      end
    end else begin
      if (wb_ack_o && wb_we_i && reg_idx < 4'd3) stage_q[reg_idx[1:0]] <= wb_dat_i;
      if (wb_ack_o && wb_we_i && reg_idx == 4'd8 && log_cnt_q < (LW+1)'(LogWords)) begin
        log_q[log_cnt_q[LW-1:0]] <= wb_dat_i;
        log_cnt_q <= log_cnt_q + 1'b1;
      end
      if (wb_ack_o && !wb_we_i && reg_idx == 4'd8) seq_q <= seq_q + 32'd1;
      // Input FIFO (entry 0 is the head).
      if (in_pop) begin
        for (int i = 0; i < int'(Depth) - 1; i++) in_fifo_q[i] <= in_fifo_q[i+1];
      end
      if (in_push) begin
        in_fifo_q[32'(in_cnt_q) - (in_pop ? 1 : 0)] <= {stage_q[0], stage_q[1], stage_q[2], wb_dat_i};
      end
      in_cnt_q <= in_cnt_q + DW'(in_push) - DW'(in_pop);
      // Engine.
      if (in_pop) begin
        eng_busy_q <= 1'b1;
        eng_cnt_q  <= latency_i;
        eng_q      <= in_fifo_q[0] ^ {4{32'h5A5A_5A5A}};
      end else if (eng_busy_q && eng_cnt_q != '0) begin
        eng_cnt_q <= eng_cnt_q - 8'd1;
      end else if (out_push) begin
        eng_busy_q <= 1'b0;
        blocks_q   <= blocks_q + 32'd1;
      end
      // Output FIFO.
      if (out_pop) begin
        for (int i = 0; i < int'(Depth) - 1; i++) out_fifo_q[i] <= out_fifo_q[i+1];
      end
      if (out_push) begin
        out_fifo_q[32'(out_cnt_q) - (out_pop ? 1 : 0)] <= eng_q;
      end
      out_cnt_q <= out_cnt_q + DW'(out_push) - DW'(out_pop);
    end
  end

  assign in_req_o  = in_en_i & ~in_full;
  assign out_req_o = out_en_i & ~out_empty;
  assign blocks_o  = blocks_q;

  logic unused;
  assign unused = ^{wb_adr_i[29:4]};

endmodule

`default_nettype wire
