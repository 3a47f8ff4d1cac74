// SPDX-License-Identifier: Apache-2.0
// DMA controller, bus-neutral: register file, channel registers and dma_core.
`default_nettype none

// Four channels. Register map: ip/dma/data/dma.rdl (docs/registers/dma.md, docs/dma.md); the
// generated dma_reg holds the global registers, dma_chan_regs each channel's external regfile
// CH[c]. The register port is peakrdl-regblock's passthrough CPU interface; the read and write
// masters are dma_core's request ports, which a bus shell (dma_wb) turns into bus cycles.
// Address windows: WinBase/WinSize hold NumWin naturally aligned power-of-two byte windows,
// window i at [i*32 +: 32]; size 0 disables a window.
module dma_periph #(
  parameter int unsigned          FifoDepth = 32,
  parameter int unsigned          NumReq    = 4,
  parameter int unsigned          NumWin    = 3,
  // SRAM0 (256 KB), SRAM1 (64 KB), the AES peripheral (4 KB) of the aesoc memory map.
  parameter logic [NumWin*32-1:0] WinBase   = {32'hF000_1000, 32'h1000_0000, 32'h0000_0000},
  parameter logic [NumWin*32-1:0] WinSize   = {32'h0000_1000, 32'h0001_0000, 32'h0004_0000}
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // Register port (peakrdl-regblock passthrough; ip/dma/README.md).
  input  wire logic              reg_req_i,
  input  wire logic              reg_req_is_wr_i,
  input  wire logic [11:0]       reg_addr_i,
  input  wire logic [31:0]       reg_wr_data_i,
  input  wire logic [31:0]       reg_wr_biten_i,
  output logic                   reg_req_stall_wr_o,
  output logic                   reg_req_stall_rd_o,
  output logic                   reg_rd_ack_o,
  output logic                   reg_rd_err_o,
  output logic [31:0]            reg_rd_data_o,
  output logic                   reg_wr_ack_o,
  output logic                   reg_wr_err_o,
  // Read master requests (dma_core): one word address per beat, burst / more / fixed qualify it.
  output logic                   rd_req_o,
  output logic [29:0]            rd_addr_o,
  output logic                   rd_burst_o,
  output logic                   rd_more_o,
  output logic [3:0]             rd_beats_o,
  output logic                   rd_fixed_o,
  output logic                   rd_prio_o,
  input  wire logic [31:0]       rd_data_i,
  input  wire logic              rd_ack_i,
  input  wire logic              rd_err_i,
  // Write master requests.
  output logic                   wr_req_o,
  output logic [29:0]            wr_addr_o,
  output logic                   wr_burst_o,
  output logic                   wr_more_o,
  output logic [3:0]             wr_beats_o,
  output logic                   wr_fixed_o,
  output logic                   wr_prio_o,
  output logic [31:0]            wr_data_o,
  input  wire logic              wr_ack_i,
  input  wire logic              wr_err_i,
  // Peripheral request lines (level: the peripheral can take / give one block now).
  input  wire logic [NumReq-1:0] req_i,
  output logic                   irq_o,
  output logic [3:0]             busy_o,
  // Simulation clock-gating hint: 1 only when the next clock edge would change no register
  // here (see the end of this module; ip/clock_gate).
  output logic                   idle_o
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
  logic                     core_idle;
  logic                     reg_req_q;   // a register request in the last cycle (for idle_o)

  // External channel regfiles (dma_chan_regs).
  logic [NUM_CH-1:0]        ch_req, ch_req_is_wr, ch_wr_ack, ch_rd_ack;
  logic [NUM_CH*6-1:0]      ch_addr;
  logic [NUM_CH*32-1:0]     ch_wr_data, ch_wr_biten, ch_rd_data, ch_ctrl;

  dma_reg_pkg::dma_regs__in_t  hwif_in;
  dma_reg_pkg::dma_regs__out_t hwif_out;

  dma_reg u_reg (
    .clk                  (clk_i),
    .arst_n               (rst_ni),
    .s_cpuif_req          (reg_req_i),
    .s_cpuif_req_is_wr    (reg_req_is_wr_i),
    .s_cpuif_addr         (reg_addr_i),
    .s_cpuif_wr_data      (reg_wr_data_i),
    .s_cpuif_wr_biten     (reg_wr_biten_i),
    .s_cpuif_req_stall_wr (reg_req_stall_wr_o),
    .s_cpuif_req_stall_rd (reg_req_stall_rd_o),
    .s_cpuif_rd_ack       (reg_rd_ack_o),
    .s_cpuif_rd_err       (reg_rd_err_o),
    .s_cpuif_rd_data      (reg_rd_data_o),
    .s_cpuif_wr_ack       (reg_wr_ack_o),
    .s_cpuif_wr_err       (reg_wr_err_o),
    .hwif_in              (hwif_in),
    .hwif_out             (hwif_out)
  );

  assign hwif_in.HWCFG.channels.next   = 4'(NUM_CH);
  assign hwif_in.HWCFG.num_req.next    = 4'(NumReq);
  assign hwif_in.HWCFG.fifo_depth.next = 8'(FifoDepth);
  assign hwif_in.HWCFG.num_win.next    = 4'(NumWin);
  assign hwif_in.STATUS.busy.next      = busy;
  assign hwif_in.BUSY_CYCLES.count.next = busy_cycles;
  assign cmd_start    = {hwif_out.CMD.start3.value, hwif_out.CMD.start2.value,
                         hwif_out.CMD.start1.value, hwif_out.CMD.start0.value};
  assign cmd_abort    = {hwif_out.CMD.abort3.value, hwif_out.CMD.abort2.value,
                         hwif_out.CMD.abort1.value, hwif_out.CMD.abort0.value};
  assign cmd_clr_busy = hwif_out.CMD.clr_busy_cycles.value;
  // Per-channel interrupt bits are separate fields: hwset sets a whole field.
  assign hwif_in.IRQ_STATUS.done0.hwset = ev_done[0];
  assign hwif_in.IRQ_STATUS.done1.hwset = ev_done[1];
  assign hwif_in.IRQ_STATUS.done2.hwset = ev_done[2];
  assign hwif_in.IRQ_STATUS.done3.hwset = ev_done[3];
  assign hwif_in.IRQ_STATUS.err0.hwset  = ev_err[0];
  assign hwif_in.IRQ_STATUS.err1.hwset  = ev_err[1];
  assign hwif_in.IRQ_STATUS.err2.hwset  = ev_err[2];
  assign hwif_in.IRQ_STATUS.err3.hwset  = ev_err[3];
  assign irq_done     = {hwif_out.IRQ_STATUS.done3.value, hwif_out.IRQ_STATUS.done2.value,
                         hwif_out.IRQ_STATUS.done1.value, hwif_out.IRQ_STATUS.done0.value};
  assign irq_err      = {hwif_out.IRQ_STATUS.err3.value, hwif_out.IRQ_STATUS.err2.value,
                         hwif_out.IRQ_STATUS.err1.value, hwif_out.IRQ_STATUS.err0.value};
  assign irq_en_done  = hwif_out.IRQ_ENABLE.done.value;
  assign irq_en_err   = hwif_out.IRQ_ENABLE.err.value;

  for (genvar c = 0; c < NUM_CH; c++) begin : gen_ch_port
    assign ch_req[c]                  = hwif_out.CH[c].req;
    assign ch_addr[6*c +: 6]          = hwif_out.CH[c].addr;
    assign ch_req_is_wr[c]            = hwif_out.CH[c].req_is_wr;
    assign ch_wr_data[32*c +: 32]     = hwif_out.CH[c].wr_data;
    assign ch_wr_biten[32*c +: 32]    = hwif_out.CH[c].wr_biten;
    assign hwif_in.CH[c].wr_ack       = ch_wr_ack[c];
    assign hwif_in.CH[c].rd_data      = ch_rd_data[32*c +: 32];
    assign hwif_in.CH[c].rd_ack       = ch_rd_ack[c];
  end

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
    .rd_req_o          (rd_req_o),
    .rd_addr_o         (rd_addr_o),
    .rd_burst_o        (rd_burst_o),
    .rd_more_o         (rd_more_o),
    .rd_beats_o        (rd_beats_o),
    .rd_fixed_o        (rd_fixed_o),
    .rd_prio_o         (rd_prio_o),
    .rd_data_i         (rd_data_i),
    .rd_ack_i          (rd_ack_i),
    .rd_err_i          (rd_err_i),
    .wr_req_o          (wr_req_o),
    .wr_addr_o         (wr_addr_o),
    .wr_burst_o        (wr_burst_o),
    .wr_more_o         (wr_more_o),
    .wr_beats_o        (wr_beats_o),
    .wr_fixed_o        (wr_fixed_o),
    .wr_prio_o         (wr_prio_o),
    .wr_data_o         (wr_data_o),
    .wr_ack_i          (wr_ack_i),
    .wr_err_i          (wr_err_i),
    .idle_o            (core_idle)
  );

  // HWCFG reads the parameters back: each must fit its field.
  if (FifoDepth > 255 || NumReq > 15 || NumWin > 15) begin : gen_bad_params
    $error("dma_periph: FifoDepth, NumReq and NumWin must fit their HWCFG fields");
  end

  assign irq_o  = |((irq_done & irq_en_done) | (irq_err & irq_en_err));
  assign busy_o = busy;

  // ---- idle_o (simulation clock gating) ----
  // 1 only if the next edge changes no register of this module, the register file, the channel
  // registers or the core:
  // - no register request now or in the last cycle (reg_req_q): the CMD singlepulse fields clear
  //   and act (start/abort/clear) in the cycle after their write; the register file's other
  //   flops (IRQ_ENABLE, W1C of IRQ_STATUS, the held read address, external_pending) and the
  //   channel registers' software writes need a request;
  // - no CMD pulse pending (implied by the above, stated for clarity);
  // - no done/error event (would set IRQ_STATUS; such events come only from a channel leaving
  //   RUN or STOP, so core_idle excludes them already);
  // - the core at rest: every channel IDLE without start, beat or credit, both engines with no
  //   burst and none to take, no busy-counter clear. Descriptor loads into the channel
  //   registers need a read burst. The request lines req_i are not registered anywhere: a
  //   channel samples them only in RUN, so they may change while idle.
  // A raised irq_o, or results waiting in the registers, are idle.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_req_q <= 1'b0;
    end else begin
      reg_req_q <= reg_req_i;
    end
  end

  assign idle_o = ~reg_req_i & ~reg_req_q & ~(|cmd_start) & ~(|cmd_abort) & ~cmd_clr_busy &
                  ~(|ev_done) & ~(|ev_err) & core_idle;

endmodule

`default_nettype wire
