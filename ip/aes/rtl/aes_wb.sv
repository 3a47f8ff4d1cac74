// SPDX-License-Identifier: Apache-2.0
// Memory-mapped AES peripheral: Wishbone register block, block FIFOs and the aes_engine.
`default_nettype none

// Register map: ip/aes/data/aes.rdl (docs/registers/aes.md). Words are in memory byte order:
// register word i holds block bytes 4i..4i+3 with byte 4i in bits 7:0, so software copies byte
// arrays with plain word loads and stores. The engine wants byte 0 in its top bits:
// aes_pkg::bswap.
// Flow control is on the bus: a DATA_IN3 write while the input FIFO is full, and a DATA_OUT
// read while no result is waiting, are held (no ACK) until they can complete. The crossbar's
// slave timeout turns a wait that can never end into a bus error.
module aes_wb #(
  parameter int unsigned RoundsPerCycle = 1,
  parameter bit          Pipelined      = 1'b0,
  parameter bit          DecEnable      = 1'b1,
  parameter int unsigned KeyLenMax      = 256,
  parameter int unsigned InDepth        = 2,
  parameter int unsigned OutDepth       = 2
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        wb_cyc_i,
  input  wire logic        wb_stb_i,
  input  wire logic        wb_we_i,
  input  wire logic [9:0]  wb_adr_i,   // word offset in the 4 KB window
  input  wire logic [31:0] wb_dat_i,
  input  wire logic [3:0]  wb_sel_i,
  output logic [31:0]      wb_dat_o,
  output logic             wb_ack_o,
  output logic             wb_err_o,
  output logic             irq_o,
  // DMA request lines: a channel may move one block in / out while asserted.
  output logic             dma_in_req_o,
  output logic             dma_out_req_o
);

  localparam int unsigned ILW = $clog2(InDepth + 1);
  localparam int unsigned OLW = $clog2(OutDepth + 1);

  // Register block hardware interface.
  logic [1:0]  ctrl_mode, ctrl_key_len, ctrl_ctr_width;
  logic        ctrl_dir, ctrl_manual_start;
  logic        cmd_key_load, cmd_start, cmd_clear;
  logic        irq_done, irq_err, irq_en_done, irq_en_err;
  logic        dma_in_en, dma_out_en;
  logic [31:0] key_word [8];
  logic        key_wipe;
  logic [3:0]  iv_req, iv_req_wr, iv_rd_ack, iv_wr_ack;
  logic [3:0]  din_req, din_req_wr, din_wr_ack;
  logic [3:0]  dout_req, dout_req_wr, dout_rd_ack;
  logic [31:0] iv_wdata [4];
  logic [31:0] din_wdata [4];
  logic [31:0] iv_rdata [4];
  logic [31:0] dout_rdata [4];
  logic [31:0] ext_biten [12];  // write bit enables of the external registers (all-ones here)
  logic        reg_ack, reg_err, reg_stall;
  logic [31:0] perf_busy, perf_blocks;

  // External access in progress: the generated block raises req for one cycle and then waits.
  typedef enum logic [1:0] { EXT_NONE, EXT_DIN3, EXT_DOUT } ext_kind_e;
  ext_kind_e   pend_q, pend_d;
  logic [1:0]  pend_word_q, pend_word_d;

  // Datapath.
  logic [31:0]  din_q [4];
  logic [31:0]  iv_stage_q [4];
  logic         in_push, in_full, in_empty, in_pop;
  logic         out_push, out_full, out_empty, out_pop;
  logic [127:0] in_head, out_head, staged_block;
  logic [ILW-1:0] in_level;
  logic [OLW-1:0] out_level;
  logic         eng_in_ready, eng_out_valid, eng_busy, eng_err, eng_key_ready;
  logic [127:0] eng_out, eng_iv;
  logic [255:0] eng_key;
  logic         eng_err_q, overflow_q;
  logic         iv_load;

  // A command acts one cycle after its write (the generated block registers the pulse); STATUS
  // read in that cycle must already show the command's effect, not the state before it.
  logic status_busy;
  assign status_busy = eng_busy | ~in_empty | cmd_key_load | cmd_start | cmd_clear;

  aes_reg u_reg (
    .clk                              (clk_i),
    .arst_n                           (rst_ni),
    .wb_cyc                           (wb_cyc_i),
    .wb_stb                           (wb_stb_i),
    .wb_we                            (wb_we_i),
    .wb_stall                         (reg_stall),
    .wb_adr                           ({wb_adr_i, 2'b00}),
    .wb_odat                          (wb_dat_i),
    .wb_sel                           (wb_sel_i),
    .wb_ack                           (reg_ack),
    .wb_err                           (reg_err),
    .wb_idat                          (wb_dat_o),
    .hwif_in_hwcfg_rounds_per_cycle   (4'(RoundsPerCycle)),
    .hwif_in_hwcfg_pipelined          (Pipelined),
    .hwif_in_hwcfg_dec_enable         (DecEnable),
    .hwif_in_hwcfg_key256             (KeyLenMax == 256),
    .hwif_in_hwcfg_in_depth           (4'(InDepth)),
    .hwif_in_hwcfg_out_depth          (4'(OutDepth)),
    .hwif_out_ctrl_mode               (ctrl_mode),
    .hwif_out_ctrl_dir                (ctrl_dir),
    .hwif_out_ctrl_key_len            (ctrl_key_len),
    .hwif_out_ctrl_ctr_width          (ctrl_ctr_width),
    .hwif_out_ctrl_manual_start       (ctrl_manual_start),
    .hwif_out_cmd_key_load            (cmd_key_load),
    .hwif_out_cmd_start               (cmd_start),
    .hwif_out_cmd_clear               (cmd_clear),
    .hwif_in_status_busy              (status_busy),
    .hwif_in_status_in_ready          (~in_full | cmd_clear),
    .hwif_in_status_out_valid         (~out_empty & ~cmd_clear),
    .hwif_in_status_err               ((eng_err_q | overflow_q) & ~cmd_clear),
    .hwif_in_status_key_ready         (eng_key_ready & ~cmd_key_load & ~cmd_clear),
    .hwif_in_status_in_level          (cmd_clear ? 4'd0 : 4'(in_level)),
    .hwif_in_status_out_level         (cmd_clear ? 4'd0 : 4'(out_level)),
    .hwif_out_irq_status_done         (irq_done),
    .hwif_in_irq_status_done_hwset    (out_push),
    .hwif_out_irq_status_err          (irq_err),
    .hwif_in_irq_status_err_hwset     ((eng_err & ~eng_err_q) | (cmd_start & in_full)),
    .hwif_out_irq_enable_done         (irq_en_done),
    .hwif_out_irq_enable_err          (irq_en_err),
    .hwif_out_dma_ctrl_in_en          (dma_in_en),
    .hwif_out_dma_ctrl_out_en         (dma_out_en),
    .hwif_in_perf_busy_count          (perf_busy + 32'd1),
    .hwif_out_perf_busy_count         (perf_busy),
    .hwif_in_perf_busy_count_we       (eng_busy | ~in_empty),
    .hwif_in_perf_blocks_count        (perf_blocks + 32'd1),
    .hwif_out_perf_blocks_count       (perf_blocks),
    .hwif_in_perf_blocks_count_we     (out_push),
    .hwif_out_key0_word               (key_word[0]),
    .hwif_in_key0_word_hwclr          (key_wipe),
    .hwif_out_key1_word               (key_word[1]),
    .hwif_in_key1_word_hwclr          (key_wipe),
    .hwif_out_key2_word               (key_word[2]),
    .hwif_in_key2_word_hwclr          (key_wipe),
    .hwif_out_key3_word               (key_word[3]),
    .hwif_in_key3_word_hwclr          (key_wipe),
    .hwif_out_key4_word               (key_word[4]),
    .hwif_in_key4_word_hwclr          (key_wipe),
    .hwif_out_key5_word               (key_word[5]),
    .hwif_in_key5_word_hwclr          (key_wipe),
    .hwif_out_key6_word               (key_word[6]),
    .hwif_in_key6_word_hwclr          (key_wipe),
    .hwif_out_key7_word               (key_word[7]),
    .hwif_in_key7_word_hwclr          (key_wipe),
    .hwif_out_iv0_req                 (iv_req[0]),
    .hwif_out_iv0_req_is_wr           (iv_req_wr[0]),
    .hwif_in_iv0_rd_ack               (iv_rd_ack[0]),
    .hwif_in_iv0_wr_ack               (iv_wr_ack[0]),
    .hwif_in_iv0_rd_data              (iv_rdata[0]),
    .hwif_out_iv0_wr_data             (iv_wdata[0]),
    .hwif_out_iv0_wr_biten            (ext_biten[0]),
    .hwif_out_iv1_req                 (iv_req[1]),
    .hwif_out_iv1_req_is_wr           (iv_req_wr[1]),
    .hwif_in_iv1_rd_ack               (iv_rd_ack[1]),
    .hwif_in_iv1_wr_ack               (iv_wr_ack[1]),
    .hwif_in_iv1_rd_data              (iv_rdata[1]),
    .hwif_out_iv1_wr_data             (iv_wdata[1]),
    .hwif_out_iv1_wr_biten            (ext_biten[1]),
    .hwif_out_iv2_req                 (iv_req[2]),
    .hwif_out_iv2_req_is_wr           (iv_req_wr[2]),
    .hwif_in_iv2_rd_ack               (iv_rd_ack[2]),
    .hwif_in_iv2_wr_ack               (iv_wr_ack[2]),
    .hwif_in_iv2_rd_data              (iv_rdata[2]),
    .hwif_out_iv2_wr_data             (iv_wdata[2]),
    .hwif_out_iv2_wr_biten            (ext_biten[2]),
    .hwif_out_iv3_req                 (iv_req[3]),
    .hwif_out_iv3_req_is_wr           (iv_req_wr[3]),
    .hwif_in_iv3_rd_ack               (iv_rd_ack[3]),
    .hwif_in_iv3_wr_ack               (iv_wr_ack[3]),
    .hwif_in_iv3_rd_data              (iv_rdata[3]),
    .hwif_out_iv3_wr_data             (iv_wdata[3]),
    .hwif_out_iv3_wr_biten            (ext_biten[3]),
    .hwif_out_data_in0_req            (din_req[0]),
    .hwif_out_data_in0_req_is_wr      (din_req_wr[0]),
    .hwif_in_data_in0_wr_ack          (din_wr_ack[0]),
    .hwif_out_data_in0_wr_data        (din_wdata[0]),
    .hwif_out_data_in0_wr_biten       (ext_biten[4]),
    .hwif_out_data_in1_req            (din_req[1]),
    .hwif_out_data_in1_req_is_wr      (din_req_wr[1]),
    .hwif_in_data_in1_wr_ack          (din_wr_ack[1]),
    .hwif_out_data_in1_wr_data        (din_wdata[1]),
    .hwif_out_data_in1_wr_biten       (ext_biten[5]),
    .hwif_out_data_in2_req            (din_req[2]),
    .hwif_out_data_in2_req_is_wr      (din_req_wr[2]),
    .hwif_in_data_in2_wr_ack          (din_wr_ack[2]),
    .hwif_out_data_in2_wr_data        (din_wdata[2]),
    .hwif_out_data_in2_wr_biten       (ext_biten[6]),
    .hwif_out_data_in3_req            (din_req[3]),
    .hwif_out_data_in3_req_is_wr      (din_req_wr[3]),
    .hwif_in_data_in3_wr_ack          (din_wr_ack[3]),
    .hwif_out_data_in3_wr_data        (din_wdata[3]),
    .hwif_out_data_in3_wr_biten       (ext_biten[7]),
    .hwif_out_data_out0_req           (dout_req[0]),
    .hwif_out_data_out0_req_is_wr     (dout_req_wr[0]),
    .hwif_in_data_out0_rd_ack         (dout_rd_ack[0]),
    .hwif_in_data_out0_rd_data        (dout_rdata[0]),
    .hwif_out_data_out1_req           (dout_req[1]),
    .hwif_out_data_out1_req_is_wr     (dout_req_wr[1]),
    .hwif_in_data_out1_rd_ack         (dout_rd_ack[1]),
    .hwif_in_data_out1_rd_data        (dout_rdata[1]),
    .hwif_out_data_out2_req           (dout_req[2]),
    .hwif_out_data_out2_req_is_wr     (dout_req_wr[2]),
    .hwif_in_data_out2_rd_ack         (dout_rd_ack[2]),
    .hwif_in_data_out2_rd_data        (dout_rdata[2]),
    .hwif_out_data_out3_req           (dout_req[3]),
    .hwif_out_data_out3_req_is_wr     (dout_req_wr[3]),
    .hwif_in_data_out3_rd_ack         (dout_rd_ack[3]),
    .hwif_in_data_out3_rd_data        (dout_rdata[3])
  );

  assign wb_ack_o = reg_ack & ~reg_err;
  assign wb_err_o = reg_err;

  // ---- external registers ----
  // IV words and DATA_IN0..2 complete at once; DATA_IN3 (auto-start) waits for FIFO room and
  // DATA_OUT waits for a result. Only one external access is outstanding at a time.
  ext_kind_e  cur_kind;
  logic [1:0] cur_word;
  logic       cur_done;

  always_comb begin
    cur_kind = pend_q;
    cur_word = pend_word_q;
    if (din_req[3] && !ctrl_manual_start) begin
      cur_kind = EXT_DIN3;
    end else if (|dout_req) begin
      cur_kind = EXT_DOUT;
      cur_word = dout_req[3] ? 2'd3 : dout_req[2] ? 2'd2 : dout_req[1] ? 2'd1 : 2'd0;
    end
    unique case (cur_kind)
      EXT_DIN3: cur_done = ~in_full;
      EXT_DOUT: cur_done = ~out_empty;
      default:  cur_done = 1'b0;
    endcase
    pend_d      = cur_done ? EXT_NONE : cur_kind;
    pend_word_d = cur_word;
  end

  assign iv_rd_ack  = iv_req & ~iv_req_wr;
  assign iv_wr_ack  = iv_req & iv_req_wr;
  assign din_wr_ack = {din_req[3] & ctrl_manual_start, din_req[2:0]} |
                      {(cur_kind == EXT_DIN3) & cur_done, 3'b000};
  assign iv_load    = iv_req[3] & iv_req_wr[3];

  for (genvar i = 0; i < 4; i++) begin : gen_words
    assign iv_rdata[i]    = aes_pkg::bswap(eng_iv[127 - 32*i -: 32]);
    assign dout_rdata[i]  = aes_pkg::bswap(out_head[127 - 32*i -: 32]);
    assign dout_rd_ack[i] = (cur_kind == EXT_DOUT) & cur_done & (cur_word == 2'(i));
    assign staged_block[127 - 32*i -: 32] = aes_pkg::bswap(i == 3 ? din_wdata[3] : din_q[i]);
  end

  // ---- FIFOs and engine ----
  // With auto-start the block is DATA_IN0..2 staged plus the DATA_IN3 word on the bus; with
  // manual start, all four staged words.
  logic [127:0] manual_block;
  for (genvar i = 0; i < 4; i++) begin : gen_manual
    assign manual_block[127 - 32*i -: 32] = aes_pkg::bswap(din_q[i]);
  end

  assign in_push  = ((cur_kind == EXT_DIN3) & cur_done) | (cmd_start & ~in_full);
  assign out_pop  = (cur_kind == EXT_DOUT) & cur_done & (cur_word == 2'd3);
  assign key_wipe = cmd_key_load | cmd_clear;

  aes_block_fifo #(.Depth(InDepth)) u_in_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (cmd_clear),
    .push_i  (in_push),
    .data_i  (cmd_start ? manual_block : staged_block),
    .full_o  (in_full),
    .pop_i   (in_pop),
    .data_o  (in_head),
    .empty_o (in_empty),
    .level_o (in_level)
  );

  aes_block_fifo #(.Depth(OutDepth)) u_out_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (cmd_clear),
    .push_i  (out_push),
    .data_i  (eng_out),
    .full_o  (out_full),
    .pop_i   (out_pop),
    .data_o  (out_head),
    .empty_o (out_empty),
    .level_o (out_level)
  );

  for (genvar i = 0; i < 8; i++) begin : gen_key
    assign eng_key[255 - 32*i -: 32] = aes_pkg::bswap(key_word[i]);
  end

  assign in_pop   = ~in_empty & eng_in_ready;
  assign out_push = eng_out_valid & ~out_full;

  aes_engine #(
    .RoundsPerCycle (RoundsPerCycle),
    .Pipelined      (Pipelined),
    .DecEnable      (DecEnable),
    .KeyLenMax      (KeyLenMax)
  ) u_engine (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .mode_i      (ctrl_mode),
    .dir_i       (ctrl_dir),
    .key_len_i   (ctrl_key_len),
    .ctr_width_i (ctrl_ctr_width),
    .key_i       (eng_key),
    .key_we_i    (cmd_key_load),
    .key_ready_o (eng_key_ready),
    .iv_i        ({aes_pkg::bswap(iv_stage_q[0]), aes_pkg::bswap(iv_stage_q[1]),
                   aes_pkg::bswap(iv_stage_q[2]), aes_pkg::bswap(iv_wdata[3])}),
    .iv_we_i     (iv_load),
    .iv_o        (eng_iv),
    .clear_i     (cmd_clear),
    .in_valid_i  (~in_empty),
    .in_ready_o  (eng_in_ready),
    .in_data_i   (in_head),
    .out_valid_o (eng_out_valid),
    .out_ready_i (~out_full),
    .out_data_o  (eng_out),
    .busy_o      (eng_busy),
    .err_o       (eng_err)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q      <= EXT_NONE;
      pend_word_q <= '0;
      eng_err_q   <= 1'b0;
      overflow_q  <= 1'b0;
      for (int i = 0; i < 4; i++) begin
        din_q[i]      <= '0;
        iv_stage_q[i] <= '0;
      end
    end else begin
      pend_q      <= pend_d;
      pend_word_q <= pend_word_d;
      eng_err_q   <= eng_err & ~cmd_clear;
      // CMD.START with a full input FIFO is refused loudly, never dropped silently.
      overflow_q  <= (overflow_q | (cmd_start & in_full)) & ~cmd_clear;
      for (int i = 0; i < 4; i++) begin
        if (cmd_clear) begin
          din_q[i]      <= '0;
          iv_stage_q[i] <= '0;
        end else begin
          if (din_req[i] && din_req_wr[i]) din_q[i] <= din_wdata[i];
          if (iv_req[i] && iv_req_wr[i]) iv_stage_q[i] <= iv_wdata[i];
        end
      end
    end
  end

  assign irq_o         = (irq_done & irq_en_done) | (irq_err & irq_en_err);
  assign dma_in_req_o  = dma_in_en & ~in_full;
  assign dma_out_req_o = dma_out_en & ~out_empty;

  logic unused;
  assign unused = ^{dout_req_wr, reg_stall, ext_biten[0], ext_biten[1],
                    ext_biten[2], ext_biten[3], ext_biten[4], ext_biten[5], ext_biten[6],
                    ext_biten[7]};

endmodule

`default_nettype wire
