// SPDX-License-Identifier: Apache-2.0
// DMA controller top: Wishbone register slave, read and write Wishbone masters, dma_core.
`default_nettype none

// Four channels. Register map: ip/dma/data/dma.rdl (docs/registers/dma.md, docs/dma.md); the
// generated dma_reg holds the global registers, dma_chan_regs each channel's external regfile.
// Each master holds CYC/STB for a whole burst: CTI 000 for a single beat, otherwise 010
// (incrementing) or 001 (constant address, fixed address mode) and 111 on the last beat; BTE 00.
// The crossbar priority class of a burst is the channel's CTRL.BUS_PRIO (rd_prio_o/wr_prio_o).
// Address windows: WinBase/WinSize hold NumWin naturally aligned power-of-two byte windows,
// window i at [i*32 +: 32] (flattened for Yosys 0.23); size 0 disables a window.
module dma_wb #(
  parameter int unsigned          FifoDepth = 32,
  parameter int unsigned          NumReq    = 4,
  parameter int unsigned          NumWin    = 3,
  // SRAM0 (256 KB), SRAM1 (64 KB), the AES peripheral (4 KB) of the aesoc memory map.
  parameter logic [NumWin*32-1:0] WinBase   = {32'hF000_1000, 32'h1000_0000, 32'h0000_0000},
  parameter logic [NumWin*32-1:0] WinSize   = {32'h0000_1000, 32'h0001_0000, 32'h0004_0000}
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // Register slave (Wishbone B4 classic, word offset in a 4 KB window).
  input  wire logic              wb_cyc_i,
  input  wire logic              wb_stb_i,
  input  wire logic              wb_we_i,
  input  wire logic [9:0]        wb_adr_i,
  input  wire logic [31:0]       wb_dat_i,
  input  wire logic [3:0]        wb_sel_i,
  output logic [31:0]            wb_dat_o,
  output logic                   wb_ack_o,
  output logic                   wb_err_o,
  // Read master.
  output logic                   rd_cyc_o,
  output logic                   rd_stb_o,
  output logic                   rd_we_o,
  output logic [29:0]            rd_adr_o,
  output logic [31:0]            rd_dat_o,
  output logic [3:0]             rd_sel_o,
  output logic [2:0]             rd_cti_o,
  output logic [1:0]             rd_bte_o,
  input  wire logic [31:0]       rd_dat_i,
  input  wire logic              rd_ack_i,
  input  wire logic              rd_err_i,
  output logic                   rd_prio_o,
  // Write master.
  output logic                   wr_cyc_o,
  output logic                   wr_stb_o,
  output logic                   wr_we_o,
  output logic [29:0]            wr_adr_o,
  output logic [31:0]            wr_dat_o,
  output logic [3:0]             wr_sel_o,
  output logic [2:0]             wr_cti_o,
  output logic [1:0]             wr_bte_o,
  input  wire logic [31:0]       wr_dat_i,
  input  wire logic              wr_ack_i,
  input  wire logic              wr_err_i,
  output logic                   wr_prio_o,
  // Peripheral request lines (level: the peripheral can take / give one block now).
  input  wire logic [NumReq-1:0] req_i,
  output logic                   irq_o,
  output logic [3:0]             busy_o
);

  localparam int unsigned NUM_CH     = 4;
  localparam int unsigned LEN_W      = dma_pkg::LEN_W;
  localparam int unsigned WLEN_W     = dma_pkg::WLEN_W;
  localparam int unsigned BLK_W      = dma_pkg::BLK_W;
  localparam int unsigned LIM_W      = dma_pkg::LIM_W;
  localparam int unsigned CNT_W      = dma_pkg::CNT_W;
  localparam int unsigned DESC_WORDS = dma_pkg::DESC_WORDS;
  localparam int unsigned FAW    = $clog2(FifoDepth);
  localparam int unsigned FLW    = FAW + 1;

  localparam logic [2:0] CTI_CLASSIC = 3'b000;
  localparam logic [2:0] CTI_CONST   = 3'b001;
  localparam logic [2:0] CTI_INCR    = 3'b010;
  localparam logic [2:0] CTI_END     = 3'b111;

  // Register block <-> core.
  logic [NUM_CH*2-1:0]      cfg_src_mode, cfg_dst_mode, cfg_burst, cfg_prio;
  logic [NUM_CH-1:0]        cfg_prefetch, cfg_chain, cfg_bus_prio, cfg_src_req_en, cfg_dst_req_en;
  logic [NUM_CH*3-1:0]      cfg_src_req_sel, cfg_dst_req_sel;
  logic [NUM_CH*BLK_W-1:0]  cfg_block;
  logic [NUM_CH*LIM_W-1:0]  cfg_fifo_limit;
  logic [NUM_CH*32-1:0]     cfg_src, cfg_dst, cfg_next;
  logic [NUM_CH*LEN_W-1:0]  cfg_len;
  logic [NUM_CH-1:0]        cmd_start, cmd_abort;
  logic                     cmd_clr_busy;
  logic [NUM_CH*DESC_WORDS-1:0] desc_we;
  logic [31:0]              desc_data;
  logic [NUM_CH-1:0]        busy, ev_done, ev_err, irq_done, irq_err, irq_en_done, irq_en_err;
  logic [NUM_CH*4-1:0]      err_code;
  logic [NUM_CH-1:0]        src_cred, dst_cred;
  logic [NUM_CH*FLW-1:0]    fifo_level;
  logic [NUM_CH*WLEN_W-1:0] remain;
  logic [NUM_CH*CNT_W-1:0]  cnt_cycles, cnt_wait, cnt_rd, cnt_wr;
  logic [CNT_W-1:0]         busy_cycles;
  logic                     reg_ack, reg_err, reg_stall;

  // External channel regfiles (dma_chan_regs).
  logic [NUM_CH-1:0]        ch_req, ch_req_is_wr, ch_wr_ack, ch_rd_ack;
  logic [NUM_CH*6-1:0]      ch_addr;
  logic [NUM_CH*32-1:0]     ch_wr_data, ch_wr_biten, ch_rd_data, ch_ctrl;

  dma_reg u_reg (
    .clk                                     (clk_i),
    .arst_n                                  (rst_ni),
    .wb_cyc                                  (wb_cyc_i),
    .wb_stb                                  (wb_stb_i),
    .wb_we                                   (wb_we_i),
    .wb_stall                                (reg_stall),
    .wb_adr                                  ({wb_adr_i, 2'b00}),
    .wb_odat                                 (wb_dat_i),
    .wb_sel                                  (wb_sel_i),
    .wb_ack                                  (reg_ack),
    .wb_err                                  (reg_err),
    .wb_idat                                 (wb_dat_o),
    .hwif_in_hwcfg_channels                  (4'(NUM_CH)),
    .hwif_in_hwcfg_num_req                   (4'(NumReq)),
    .hwif_in_hwcfg_fifo_depth                (8'(FifoDepth)),
    .hwif_in_hwcfg_num_win                   (4'(NumWin)),
    .hwif_out_cmd_start0                     (cmd_start[0]),
    .hwif_out_cmd_start1                     (cmd_start[1]),
    .hwif_out_cmd_start2                     (cmd_start[2]),
    .hwif_out_cmd_start3                     (cmd_start[3]),
    .hwif_out_cmd_abort0                     (cmd_abort[0]),
    .hwif_out_cmd_abort1                     (cmd_abort[1]),
    .hwif_out_cmd_abort2                     (cmd_abort[2]),
    .hwif_out_cmd_abort3                     (cmd_abort[3]),
    .hwif_out_cmd_clr_busy_cycles            (cmd_clr_busy),
    .hwif_in_status_busy                     (busy),
    .hwif_out_irq_status_done0               (irq_done[0]),
    .hwif_in_irq_status_done0_hwset          (ev_done[0]),
    .hwif_out_irq_status_done1               (irq_done[1]),
    .hwif_in_irq_status_done1_hwset          (ev_done[1]),
    .hwif_out_irq_status_done2               (irq_done[2]),
    .hwif_in_irq_status_done2_hwset          (ev_done[2]),
    .hwif_out_irq_status_done3               (irq_done[3]),
    .hwif_in_irq_status_done3_hwset          (ev_done[3]),
    .hwif_out_irq_status_err0                (irq_err[0]),
    .hwif_in_irq_status_err0_hwset           (ev_err[0]),
    .hwif_out_irq_status_err1                (irq_err[1]),
    .hwif_in_irq_status_err1_hwset           (ev_err[1]),
    .hwif_out_irq_status_err2                (irq_err[2]),
    .hwif_in_irq_status_err2_hwset           (ev_err[2]),
    .hwif_out_irq_status_err3                (irq_err[3]),
    .hwif_in_irq_status_err3_hwset           (ev_err[3]),
    .hwif_out_irq_enable_done                (irq_en_done),
    .hwif_out_irq_enable_err                 (irq_en_err),
    .hwif_in_busy_cycles_count               (busy_cycles),
    .hwif_out_ch0_req                        (ch_req[0]),
    .hwif_out_ch0_addr                       (ch_addr[6*0 +: 6]),
    .hwif_out_ch0_req_is_wr                  (ch_req_is_wr[0]),
    .hwif_out_ch0_wr_data                    (ch_wr_data[32*0 +: 32]),
    .hwif_out_ch0_wr_biten                   (ch_wr_biten[32*0 +: 32]),
    .hwif_in_ch0_wr_ack                      (ch_wr_ack[0]),
    .hwif_in_ch0_rd_data                     (ch_rd_data[32*0 +: 32]),
    .hwif_in_ch0_rd_ack                      (ch_rd_ack[0]),
    .hwif_out_ch1_req                        (ch_req[1]),
    .hwif_out_ch1_addr                       (ch_addr[6*1 +: 6]),
    .hwif_out_ch1_req_is_wr                  (ch_req_is_wr[1]),
    .hwif_out_ch1_wr_data                    (ch_wr_data[32*1 +: 32]),
    .hwif_out_ch1_wr_biten                   (ch_wr_biten[32*1 +: 32]),
    .hwif_in_ch1_wr_ack                      (ch_wr_ack[1]),
    .hwif_in_ch1_rd_data                     (ch_rd_data[32*1 +: 32]),
    .hwif_in_ch1_rd_ack                      (ch_rd_ack[1]),
    .hwif_out_ch2_req                        (ch_req[2]),
    .hwif_out_ch2_addr                       (ch_addr[6*2 +: 6]),
    .hwif_out_ch2_req_is_wr                  (ch_req_is_wr[2]),
    .hwif_out_ch2_wr_data                    (ch_wr_data[32*2 +: 32]),
    .hwif_out_ch2_wr_biten                   (ch_wr_biten[32*2 +: 32]),
    .hwif_in_ch2_wr_ack                      (ch_wr_ack[2]),
    .hwif_in_ch2_rd_data                     (ch_rd_data[32*2 +: 32]),
    .hwif_in_ch2_rd_ack                      (ch_rd_ack[2]),
    .hwif_out_ch3_req                        (ch_req[3]),
    .hwif_out_ch3_addr                       (ch_addr[6*3 +: 6]),
    .hwif_out_ch3_req_is_wr                  (ch_req_is_wr[3]),
    .hwif_out_ch3_wr_data                    (ch_wr_data[32*3 +: 32]),
    .hwif_out_ch3_wr_biten                   (ch_wr_biten[32*3 +: 32]),
    .hwif_in_ch3_wr_ack                      (ch_wr_ack[3]),
    .hwif_in_ch3_rd_data                     (ch_rd_data[32*3 +: 32]),
    .hwif_in_ch3_rd_ack                      (ch_rd_ack[3])
  );

  // The generated block raises ACK together with ERR on a bad address.
  assign wb_ack_o = reg_ack & ~reg_err;
  assign wb_err_o = reg_err;

  for (genvar c = 0; c < NUM_CH; c++) begin : gen_ch
    dma_chan_regs #(
      .FLW (FLW)
    ) u_regs (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .req_i        (ch_req[c]),
      .addr_i       (ch_addr[6*c +: 6]),
      .req_is_wr_i  (ch_req_is_wr[c]),
      .wr_data_i    (ch_wr_data[32*c +: 32]),
      .wr_biten_i   (ch_wr_biten[32*c +: 32]),
      .rd_ack_o     (ch_rd_ack[c]),
      .wr_ack_o     (ch_wr_ack[c]),
      .rd_data_o    (ch_rd_data[32*c +: 32]),
      .busy_i       (busy[c]),
      .desc_we_i    (desc_we[DESC_WORDS*c +: DESC_WORDS]),
      .desc_data_i  (desc_data),
      .src_cred_i   (src_cred[c]),
      .dst_cred_i   (dst_cred[c]),
      .err_code_i   (err_code[4*c +: 4]),
      .fifo_level_i (fifo_level[FLW*c +: FLW]),
      .remain_i     (remain[WLEN_W*c +: WLEN_W]),
      .cnt_cycles_i (cnt_cycles[CNT_W*c +: CNT_W]),
      .cnt_wait_i   (cnt_wait[CNT_W*c +: CNT_W]),
      .cnt_rd_i     (cnt_rd[CNT_W*c +: CNT_W]),
      .cnt_wr_i     (cnt_wr[CNT_W*c +: CNT_W]),
      .ctrl_o       (ch_ctrl[32*c +: 32]),
      .block_o      (cfg_block[BLK_W*c +: BLK_W]),
      .fifo_limit_o (cfg_fifo_limit[LIM_W*c +: LIM_W]),
      .src_o        (cfg_src[32*c +: 32]),
      .dst_o        (cfg_dst[32*c +: 32]),
      .len_o        (cfg_len[LEN_W*c +: LEN_W]),
      .next_o       (cfg_next[32*c +: 32])
    );

    // CTRL fields (dma.rdl).
    assign cfg_src_mode[2*c +: 2]    = ch_ctrl[32*c + 0 +: 2];
    assign cfg_dst_mode[2*c +: 2]    = ch_ctrl[32*c + 2 +: 2];
    assign cfg_burst[2*c +: 2]       = ch_ctrl[32*c + 4 +: 2];
    assign cfg_prefetch[c]           = ch_ctrl[32*c + 6];
    assign cfg_chain[c]              = ch_ctrl[32*c + 7];
    assign cfg_prio[2*c +: 2]        = ch_ctrl[32*c + 8 +: 2];
    assign cfg_bus_prio[c]           = ch_ctrl[32*c + 10];
    assign cfg_src_req_en[c]         = ch_ctrl[32*c + 12];
    assign cfg_src_req_sel[3*c +: 3] = ch_ctrl[32*c + 13 +: 3];
    assign cfg_dst_req_en[c]         = ch_ctrl[32*c + 16];
    assign cfg_dst_req_sel[3*c +: 3] = ch_ctrl[32*c + 17 +: 3];

    logic unused_ctrl;
    assign unused_ctrl = ^{ch_ctrl[32*c + 11], ch_ctrl[32*c + 20 +: 12]};
  end

  logic rd_req, rd_burst, rd_more, rd_fixed;
  logic wr_req, wr_burst, wr_more, wr_fixed;

  dma_core #(
    .NumCh     (NUM_CH),
    .FifoDepth (FifoDepth),
    .NumReq    (NumReq),
    .NumWin    (NumWin),
    .WinBase   (WinBase),
    .WinSize   (WinSize)
  ) u_core (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .cfg_src_mode_i    (cfg_src_mode),
    .cfg_dst_mode_i    (cfg_dst_mode),
    .cfg_burst_i       (cfg_burst),
    .cfg_prefetch_i    (cfg_prefetch),
    .cfg_chain_i       (cfg_chain),
    .cfg_prio_i        (cfg_prio),
    .cfg_bus_prio_i    (cfg_bus_prio),
    .cfg_src_req_en_i  (cfg_src_req_en),
    .cfg_src_req_sel_i (cfg_src_req_sel),
    .cfg_dst_req_en_i  (cfg_dst_req_en),
    .cfg_dst_req_sel_i (cfg_dst_req_sel),
    .cfg_block_i       (cfg_block),
    .cfg_fifo_limit_i  (cfg_fifo_limit),
    .cfg_src_i         (cfg_src),
    .cfg_dst_i         (cfg_dst),
    .cfg_len_i         (cfg_len),
    .cfg_next_i        (cfg_next),
    .start_i           (cmd_start),
    .abort_i           (cmd_abort),
    .clr_busy_cycles_i (cmd_clr_busy),
    .desc_we_o         (desc_we),
    .desc_data_o       (desc_data),
    .busy_o            (busy),
    .done_o            (ev_done),
    .err_o             (ev_err),
    .err_code_o        (err_code),
    .src_cred_o        (src_cred),
    .dst_cred_o        (dst_cred),
    .fifo_level_o      (fifo_level),
    .remain_o          (remain),
    .cnt_cycles_o      (cnt_cycles),
    .cnt_wait_o        (cnt_wait),
    .cnt_rd_o          (cnt_rd),
    .cnt_wr_o          (cnt_wr),
    .busy_cycles_o     (busy_cycles),
    .req_i             (req_i),
    .rd_req_o          (rd_req),
    .rd_addr_o         (rd_adr_o),
    .rd_burst_o        (rd_burst),
    .rd_more_o         (rd_more),
    .rd_fixed_o        (rd_fixed),
    .rd_prio_o         (rd_prio_o),
    .rd_data_i         (rd_dat_i),
    .rd_ack_i          (rd_ack_i),
    .rd_err_i          (rd_err_i),
    .wr_req_o          (wr_req),
    .wr_addr_o         (wr_adr_o),
    .wr_burst_o        (wr_burst),
    .wr_more_o         (wr_more),
    .wr_fixed_o        (wr_fixed),
    .wr_prio_o         (wr_prio_o),
    .wr_data_o         (wr_dat_o),
    .wr_ack_i          (wr_ack_i),
    .wr_err_i          (wr_err_i)
  );

  function automatic logic [2:0] cti(logic burst, logic more, logic fixed);
    if (!burst) begin
      cti = CTI_CLASSIC;
    end else if (!more) begin
      cti = CTI_END;
    end else begin
      cti = fixed ? CTI_CONST : CTI_INCR;
    end
  endfunction

  assign rd_cyc_o = rd_req;
  assign rd_stb_o = rd_req;
  assign rd_we_o  = 1'b0;
  assign rd_dat_o = '0;
  assign rd_sel_o = 4'hF;
  assign rd_cti_o = cti(rd_burst, rd_more, rd_fixed);
  assign rd_bte_o = 2'b00;

  assign wr_cyc_o = wr_req;
  assign wr_stb_o = wr_req;
  assign wr_we_o  = 1'b1;
  assign wr_sel_o = 4'hF;
  assign wr_cti_o = cti(wr_burst, wr_more, wr_fixed);
  assign wr_bte_o = 2'b00;

  assign irq_o  = |((irq_done & irq_en_done) | (irq_err & irq_en_err));
  assign busy_o = busy;

  logic unused;
  assign unused = ^{reg_stall, wr_dat_i};

endmodule

`default_nettype wire
