// SPDX-License-Identifier: Apache-2.0
// aesoc SoC top: VexRiscv_FullCfu, Wishbone crossbar, two SRAM banks and system control.
`default_nettype none

module aesoc_top
  import aesoc_pkg::*;
#(
  parameter int unsigned Sram0Bytes = 262144,
  parameter int unsigned Sram1Bytes = 65536,
  // AES coprocessor on the CFU port (0: CFU ops answer 0)
  parameter bit          AesCfu             = 1'b1,
  parameter int unsigned AesCfuRoundsPerCycle = 1,
  // Memory-mapped AES peripheral (0: its window answers ERR)
  parameter bit          AesMmio            = 1'b1,
  parameter int unsigned AesRoundsPerCycle  = 1,
  parameter bit          AesPipelined       = 1'b0,
  parameter int unsigned AesFifoDepth       = 2,
  // XIP flash controller (0: flash window and its registers answer ERR)
  parameter bit          Xip                = 1'b1,
  parameter int unsigned FlashBytes         = 16 * 1024 * 1024,
  parameter int unsigned XipPrefetchWords   = 16,
  parameter int unsigned XipRoundsPerCycle  = 1,
  // DMA controller (0: its register window answers ERR and its masters stay idle)
  parameter bit          Dma                = 1'b1,
  parameter int unsigned DmaFifoDepth       = 64
) (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  /* verilator tracing_off */
  // Key-encryption key from one-time-programmable storage; reaches only the XIP key unwrap.
  input  wire logic [127:0] otp_kek_i,
  /* verilator tracing_on */
  // QSPI flash pins
  output logic            flash_sck_o,
  output logic            flash_cs_no,
  output logic [3:0]      flash_io_o,
  output logic [3:0]      flash_io_oe_o,
  input  wire logic [3:0] flash_io_i,
  output logic            exit_valid_o,
  output logic [7:0]      exit_code_o,
  output logic            console_valid_o,
  output logic [7:0]      console_char_o
);

  localparam logic [NUM_SLAVES-1:0][31:0] SLAVE_BASE = {
    DMA_BASE, XIP_BASE, FLASH_BASE, AES_BASE, SYSCTRL_BASE, SRAM1_BASE, SRAM0_BASE
  };
  localparam logic [NUM_SLAVES-1:0][31:0] SLAVE_MASK = {
    PERIPH_MASK, PERIPH_MASK, mem_mask(FlashBytes), PERIPH_MASK, PERIPH_MASK, mem_mask(Sram1Bytes),
    mem_mask(Sram0Bytes)
  };
  // What a DMA channel may address: both SRAM banks and the AES peripheral (bus addresses
  // without the uncached bit, which only the CPU's data cache looks at).
  localparam logic [3*32-1:0] DMA_WIN_BASE = {AES_BASE, SRAM1_BASE, SRAM0_BASE};
  localparam logic [3*32-1:0] DMA_WIN_SIZE = {32'h1000, 32'(Sram1Bytes), 32'(Sram0Bytes)};

  // Master side of the crossbar.
  logic [NUM_MASTERS-1:0]       m_cyc, m_stb, m_we, m_ack, m_err;
  logic [NUM_MASTERS-1:0][29:0] m_adr;
  logic [NUM_MASTERS-1:0][31:0] m_wdat, m_rdat;
  logic [NUM_MASTERS-1:0][3:0]  m_sel;
  logic [NUM_MASTERS-1:0][2:0]  m_cti;
  logic [NUM_MASTERS-1:0][1:0]  m_bte;
  // Slave side.
  logic [NUM_SLAVES-1:0]        s_cyc, s_stb, s_we, s_ack, s_err;
  logic [NUM_SLAVES-1:0][29:0]  s_adr;
  logic [NUM_SLAVES-1:0][31:0]  s_wdat, s_rdat;
  logic [NUM_SLAVES-1:0][3:0]   s_sel;
  logic [NUM_SLAVES-1:0][2:0]   s_cti;
  logic [NUM_SLAVES-1:0][1:0]   s_bte;

  // The CPU sees these; this VexRiscv build ignores Wishbone ERR (its bridges tie the response
  // error to 0), so an ERR is turned into an ACK plus a bus-error interrupt instead of a hang.
  logic [M_CPU_D:0]             cpu_ack;
  logic                         bus_err;
  logic [3:0]                   bus_err_master;
  logic [31:0]                  bus_err_addr;

  logic [31:0] irq_src;
  logic [31:0] irq_lines;
  logic        timer_irq;
  logic [7:0]  bus_prio;
  logic [NUM_MASTERS-1:0] m_prio;
  logic        dma_rd_prio, dma_wr_prio, dma_irq;

  logic        cfu_cmd_valid, cfu_cmd_ready, cfu_rsp_valid, cfu_rsp_ready;
  logic [9:0]  cfu_function_id;
  logic [31:0] cfu_inputs_0, cfu_inputs_1, cfu_outputs_0;

  VexRiscv u_cpu (
    .externalResetVector                   (SRAM0_BASE),
    .timerInterrupt                        (timer_irq),
    .softwareInterrupt                     (1'b0),
    .externalInterruptArray                (irq_lines),
    .CfuPlugin_bus_cmd_valid               (cfu_cmd_valid),
    .CfuPlugin_bus_cmd_ready               (cfu_cmd_ready),
    .CfuPlugin_bus_cmd_payload_function_id (cfu_function_id),
    .CfuPlugin_bus_cmd_payload_inputs_0    (cfu_inputs_0),
    .CfuPlugin_bus_cmd_payload_inputs_1    (cfu_inputs_1),
    .CfuPlugin_bus_rsp_valid               (cfu_rsp_valid),
    .CfuPlugin_bus_rsp_ready               (cfu_rsp_ready),
    .CfuPlugin_bus_rsp_payload_outputs_0   (cfu_outputs_0),
    .iBusWishbone_CYC                      (m_cyc[M_CPU_I]),
    .iBusWishbone_STB                      (m_stb[M_CPU_I]),
    .iBusWishbone_ACK                      (cpu_ack[M_CPU_I]),
    .iBusWishbone_WE                       (m_we[M_CPU_I]),
    .iBusWishbone_ADR                      (m_adr[M_CPU_I]),
    .iBusWishbone_DAT_MISO                 (m_err[M_CPU_I] ? 32'd0 : m_rdat[M_CPU_I]),
    .iBusWishbone_DAT_MOSI                 (m_wdat[M_CPU_I]),
    .iBusWishbone_SEL                      (m_sel[M_CPU_I]),
    .iBusWishbone_ERR                      (m_err[M_CPU_I]),
    .iBusWishbone_CTI                      (m_cti[M_CPU_I]),
    .iBusWishbone_BTE                      (m_bte[M_CPU_I]),
    .dBusWishbone_CYC                      (m_cyc[M_CPU_D]),
    .dBusWishbone_STB                      (m_stb[M_CPU_D]),
    .dBusWishbone_ACK                      (cpu_ack[M_CPU_D]),
    .dBusWishbone_WE                       (m_we[M_CPU_D]),
    .dBusWishbone_ADR                      (m_adr[M_CPU_D]),
    .dBusWishbone_DAT_MISO                 (m_err[M_CPU_D] ? 32'd0 : m_rdat[M_CPU_D]),
    .dBusWishbone_DAT_MOSI                 (m_wdat[M_CPU_D]),
    .dBusWishbone_SEL                      (m_sel[M_CPU_D]),
    .dBusWishbone_ERR                      (m_err[M_CPU_D]),
    .dBusWishbone_CTI                      (m_cti[M_CPU_D]),
    .dBusWishbone_BTE                      (m_bte[M_CPU_D]),
    .clk                                   (clk_i),
    .reset                                 (~rst_ni)
  );

  assign cpu_ack[M_CPU_I] = m_ack[M_CPU_I] | m_err[M_CPU_I];
  assign cpu_ack[M_CPU_D] = m_ack[M_CPU_D] | m_err[M_CPU_D];

  // Data-side errors are reported first: the address is the one the program used.
  always_comb begin
    bus_err        = m_err[M_CPU_D] | m_err[M_CPU_I];
    bus_err_master = m_err[M_CPU_D] ? 4'(M_CPU_D) : 4'(M_CPU_I);
    bus_err_addr   = m_err[M_CPU_D] ? {m_adr[M_CPU_D], 2'b00} : {m_adr[M_CPU_I], 2'b00};
  end

  if (AesCfu) begin : gen_aes_cfu
    aes_cfu #(.RoundsPerCycle(AesCfuRoundsPerCycle)) u_aes_cfu (
      .clk_i             (clk_i),
      .rst_ni            (rst_ni),
      .cmd_valid_i       (cfu_cmd_valid),
      .cmd_ready_o       (cfu_cmd_ready),
      .cmd_function_id_i (cfu_function_id),
      .cmd_inputs_0_i    (cfu_inputs_0),
      .cmd_inputs_1_i    (cfu_inputs_1),
      .rsp_valid_o       (cfu_rsp_valid),
      .rsp_ready_i       (cfu_rsp_ready),
      .rsp_outputs_0_o   (cfu_outputs_0)
    );
  end else begin : gen_no_cfu
    // No coprocessor: every CFU op answers 0 one cycle later, so a stray op cannot hang the core.
    logic rsp_valid_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rsp_valid_q <= 1'b0;
      end else begin
        rsp_valid_q <= (cfu_cmd_valid & ~rsp_valid_q) | (rsp_valid_q & ~cfu_rsp_ready);
      end
    end
    assign cfu_cmd_ready = ~rsp_valid_q;
    assign cfu_rsp_valid = rsp_valid_q;
    assign cfu_outputs_0 = '0;
    logic unused_cfu;
    assign unused_cfu = ^{cfu_function_id, cfu_inputs_0, cfu_inputs_1};
  end

  wb_xbar #(
    .NumMasters (NUM_MASTERS),
    .NumSlaves  (NUM_SLAVES),
    .SlaveBase  (SLAVE_BASE),
    .SlaveMask  (SLAVE_MASK)
  ) u_xbar (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .m_prio_i (m_prio),
    .m_cyc_i  (m_cyc),
    .m_stb_i  (m_stb),
    .m_we_i   (m_we),
    .m_adr_i  (m_adr),
    .m_dat_i  (m_wdat),
    .m_sel_i  (m_sel),
    .m_cti_i  (m_cti),
    .m_bte_i  (m_bte),
    .m_dat_o  (m_rdat),
    .m_ack_o  (m_ack),
    .m_err_o  (m_err),
    .s_cyc_o  (s_cyc),
    .s_stb_o  (s_stb),
    .s_we_o   (s_we),
    .s_adr_o  (s_adr),
    .s_dat_o  (s_wdat),
    .s_sel_o  (s_sel),
    .s_cti_o  (s_cti),
    .s_bte_o  (s_bte),
    .s_dat_i  (s_rdat),
    .s_ack_i  (s_ack),
    .s_err_i  (s_err)
  );

  wb_sram #(.SizeBytes(Sram0Bytes), .BaseAddr(SRAM0_BASE)) u_sram0 (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wb_cyc_i (s_cyc[S_SRAM0]),
    .wb_stb_i (s_stb[S_SRAM0]),
    .wb_we_i  (s_we[S_SRAM0]),
    .wb_adr_i (s_adr[S_SRAM0]),
    .wb_dat_i (s_wdat[S_SRAM0]),
    .wb_sel_i (s_sel[S_SRAM0]),
    .wb_cti_i (s_cti[S_SRAM0]),
    .wb_bte_i (s_bte[S_SRAM0]),
    .wb_dat_o (s_rdat[S_SRAM0]),
    .wb_ack_o (s_ack[S_SRAM0]),
    .wb_err_o (s_err[S_SRAM0])
  );

  wb_sram #(.SizeBytes(Sram1Bytes), .BaseAddr(SRAM1_BASE)) u_sram1 (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wb_cyc_i (s_cyc[S_SRAM1]),
    .wb_stb_i (s_stb[S_SRAM1]),
    .wb_we_i  (s_we[S_SRAM1]),
    .wb_adr_i (s_adr[S_SRAM1]),
    .wb_dat_i (s_wdat[S_SRAM1]),
    .wb_sel_i (s_sel[S_SRAM1]),
    .wb_cti_i (s_cti[S_SRAM1]),
    .wb_bte_i (s_bte[S_SRAM1]),
    .wb_dat_o (s_rdat[S_SRAM1]),
    .wb_ack_o (s_ack[S_SRAM1]),
    .wb_err_o (s_err[S_SRAM1])
  );

  sysctrl u_sysctrl (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .wb_cyc_i        (s_cyc[S_SYSCTRL]),
    .wb_stb_i        (s_stb[S_SYSCTRL]),
    .wb_we_i         (s_we[S_SYSCTRL]),
    .wb_adr_i        (s_adr[S_SYSCTRL][9:0]),
    .wb_dat_i        (s_wdat[S_SYSCTRL]),
    .wb_sel_i        (s_sel[S_SYSCTRL]),
    .wb_dat_o        (s_rdat[S_SYSCTRL]),
    .wb_ack_o        (s_ack[S_SYSCTRL]),
    .wb_err_o        (s_err[S_SYSCTRL]),
    .exit_valid_o    (exit_valid_o),
    .exit_code_o     (exit_code_o),
    .console_valid_o (console_valid_o),
    .console_char_o  (console_char_o),
    .irq_src_i       (irq_src[31:1]),
    .irq_o           (irq_lines),
    .timer_irq_o     (timer_irq),
    .bus_prio_o      (bus_prio),
    .bus_err_i       (bus_err),
    .bus_err_master_i(bus_err_master),
    .bus_err_addr_i  (bus_err_addr)
  );

  logic aes_irq, aes_dma_in_req, aes_dma_out_req;

  if (AesMmio) begin : gen_aes
    aes_wb #(
      .RoundsPerCycle (AesRoundsPerCycle),
      .Pipelined      (AesPipelined),
      .InDepth        (AesFifoDepth),
      .OutDepth       (AesFifoDepth)
    ) u_aes (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .wb_cyc_i      (s_cyc[S_AES]),
      .wb_stb_i      (s_stb[S_AES]),
      .wb_we_i       (s_we[S_AES]),
      .wb_adr_i      (s_adr[S_AES][9:0]),
      .wb_dat_i      (s_wdat[S_AES]),
      .wb_sel_i      (s_sel[S_AES]),
      .wb_dat_o      (s_rdat[S_AES]),
      .wb_ack_o      (s_ack[S_AES]),
      .wb_err_o      (s_err[S_AES]),
      .irq_o         (aes_irq),
      .dma_in_req_o  (aes_dma_in_req),
      .dma_out_req_o (aes_dma_out_req)
    );
  end else begin : gen_no_aes
    assign s_ack[S_AES]   = 1'b0;
    assign s_err[S_AES]   = s_cyc[S_AES] & s_stb[S_AES];
    assign s_rdat[S_AES]  = '0;
    assign aes_irq        = 1'b0;
    assign aes_dma_in_req = 1'b0;
    assign aes_dma_out_req = 1'b0;
    logic unused_aes;
    assign unused_aes = ^{s_adr[S_AES][9:0], s_wdat[S_AES], s_sel[S_AES], s_we[S_AES]};
  end

  if (Xip) begin : gen_xip
    xip #(
      .FlashBytes       (FlashBytes),
      .PrefetchWords    (XipPrefetchWords),
      .KsRoundsPerCycle (XipRoundsPerCycle)
    ) u_xip (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .wb_cyc_i      (s_cyc[S_FLASH]),
      .wb_stb_i      (s_stb[S_FLASH]),
      .wb_we_i       (s_we[S_FLASH]),
      .wb_adr_i      (s_adr[S_FLASH]),
      .wb_dat_i      (s_wdat[S_FLASH]),
      .wb_sel_i      (s_sel[S_FLASH]),
      .wb_cti_i      (s_cti[S_FLASH]),
      .wb_bte_i      (s_bte[S_FLASH]),
      .wb_dat_o      (s_rdat[S_FLASH]),
      .wb_ack_o      (s_ack[S_FLASH]),
      .wb_err_o      (s_err[S_FLASH]),
      .reg_cyc_i     (s_cyc[S_XIP]),
      .reg_stb_i     (s_stb[S_XIP]),
      .reg_we_i      (s_we[S_XIP]),
      .reg_adr_i     (s_adr[S_XIP][9:0]),
      .reg_dat_i     (s_wdat[S_XIP]),
      .reg_sel_i     (s_sel[S_XIP]),
      .reg_dat_o     (s_rdat[S_XIP]),
      .reg_ack_o     (s_ack[S_XIP]),
      .reg_err_o     (s_err[S_XIP]),
      .otp_kek_i     (otp_kek_i),
      .flash_sck_o   (flash_sck_o),
      .flash_cs_no   (flash_cs_no),
      .flash_io_o    (flash_io_o),
      .flash_io_oe_o (flash_io_oe_o),
      .flash_io_i    (flash_io_i)
    );
  end else begin : gen_no_xip
    assign s_ack[S_FLASH]  = 1'b0;
    assign s_err[S_FLASH]  = s_cyc[S_FLASH] & s_stb[S_FLASH];
    assign s_rdat[S_FLASH] = '0;
    assign s_ack[S_XIP]    = 1'b0;
    assign s_err[S_XIP]    = s_cyc[S_XIP] & s_stb[S_XIP];
    assign s_rdat[S_XIP]   = '0;
    assign flash_sck_o     = 1'b0;
    assign flash_cs_no     = 1'b1;
    assign flash_io_o      = '0;
    assign flash_io_oe_o   = '0;
    logic unused_xip;
    assign unused_xip = ^{otp_kek_i, flash_io_i, s_adr[S_FLASH], s_wdat[S_FLASH], s_sel[S_FLASH], s_we[S_FLASH],
                          s_cti[S_FLASH], s_bte[S_FLASH], s_adr[S_XIP][9:0], s_wdat[S_XIP], s_sel[S_XIP],
                          s_we[S_XIP]};
  end

  // A DMA burst is high priority when sysctrl says so for that master or its channel asks.
  always_comb begin
    m_prio           = bus_prio[NUM_MASTERS-1:0];
    m_prio[M_DMA_RD] = bus_prio[M_DMA_RD] | dma_rd_prio;
    m_prio[M_DMA_WR] = bus_prio[M_DMA_WR] | dma_wr_prio;
  end

  if (Dma) begin : gen_dma
    logic [DMA_NUM_REQ-1:0] dma_req;
    always_comb begin
      dma_req                  = '0;
      dma_req[DMA_REQ_AES_IN]  = aes_dma_in_req;
      dma_req[DMA_REQ_AES_OUT] = aes_dma_out_req;
    end
    logic [3:0] unused_dma_busy;
    dma_wb #(
      .FifoDepth (DmaFifoDepth),
      .NumReq    (DMA_NUM_REQ),
      .NumWin    (3),
      .WinBase   (DMA_WIN_BASE),
      .WinSize   (DMA_WIN_SIZE)
    ) u_dma (
      .clk_i     (clk_i),
      .rst_ni    (rst_ni),
      .wb_cyc_i  (s_cyc[S_DMA]),
      .wb_stb_i  (s_stb[S_DMA]),
      .wb_we_i   (s_we[S_DMA]),
      .wb_adr_i  (s_adr[S_DMA][9:0]),
      .wb_dat_i  (s_wdat[S_DMA]),
      .wb_sel_i  (s_sel[S_DMA]),
      .wb_dat_o  (s_rdat[S_DMA]),
      .wb_ack_o  (s_ack[S_DMA]),
      .wb_err_o  (s_err[S_DMA]),
      .rd_cyc_o  (m_cyc[M_DMA_RD]),
      .rd_stb_o  (m_stb[M_DMA_RD]),
      .rd_we_o   (m_we[M_DMA_RD]),
      .rd_adr_o  (m_adr[M_DMA_RD]),
      .rd_dat_o  (m_wdat[M_DMA_RD]),
      .rd_sel_o  (m_sel[M_DMA_RD]),
      .rd_cti_o  (m_cti[M_DMA_RD]),
      .rd_bte_o  (m_bte[M_DMA_RD]),
      .rd_dat_i  (m_rdat[M_DMA_RD]),
      .rd_ack_i  (m_ack[M_DMA_RD]),
      .rd_err_i  (m_err[M_DMA_RD]),
      .rd_prio_o (dma_rd_prio),
      .wr_cyc_o  (m_cyc[M_DMA_WR]),
      .wr_stb_o  (m_stb[M_DMA_WR]),
      .wr_we_o   (m_we[M_DMA_WR]),
      .wr_adr_o  (m_adr[M_DMA_WR]),
      .wr_dat_o  (m_wdat[M_DMA_WR]),
      .wr_sel_o  (m_sel[M_DMA_WR]),
      .wr_cti_o  (m_cti[M_DMA_WR]),
      .wr_bte_o  (m_bte[M_DMA_WR]),
      .wr_dat_i  (m_rdat[M_DMA_WR]),
      .wr_ack_i  (m_ack[M_DMA_WR]),
      .wr_err_i  (m_err[M_DMA_WR]),
      .wr_prio_o (dma_wr_prio),
      .req_i     (dma_req),
      .irq_o     (dma_irq),
      .busy_o    (unused_dma_busy)
    );
  end else begin : gen_no_dma
    assign s_ack[S_DMA]  = 1'b0;
    assign s_err[S_DMA]  = s_cyc[S_DMA] & s_stb[S_DMA];
    assign s_rdat[S_DMA] = '0;
    for (genvar m = M_DMA_RD; m <= M_DMA_WR; m++) begin : gen_idle_master
      assign m_cyc[m]  = 1'b0;
      assign m_stb[m]  = 1'b0;
      assign m_we[m]   = 1'b0;
      assign m_adr[m]  = '0;
      assign m_wdat[m] = '0;
      assign m_sel[m]  = '0;
      assign m_cti[m]  = '0;
      assign m_bte[m]  = '0;
    end
    assign dma_rd_prio = 1'b0;
    assign dma_wr_prio = 1'b0;
    assign dma_irq     = 1'b0;
    logic unused_no_dma;
    assign unused_no_dma = ^{s_adr[S_DMA][9:0], s_wdat[S_DMA], s_sel[S_DMA], s_we[S_DMA], aes_dma_in_req,
                             aes_dma_out_req, m_rdat[M_DMA_RD], m_ack[M_DMA_RD], m_err[M_DMA_RD],
                             m_rdat[M_DMA_WR], m_ack[M_DMA_WR], m_err[M_DMA_WR]};
  end

  // Line IRQ_BUS_ERR is raised inside sysctrl; lines without a source stay low.
  assign irq_src = (32'(aes_irq) << IRQ_AES) | (32'(dma_irq) << IRQ_DMA);

  // Peripheral slaves see only their local offset; the rest of the address is decode.
  logic unused;
  assign unused = ^{s_adr[S_SYSCTRL][29:10], s_cti[S_SYSCTRL], s_bte[S_SYSCTRL], irq_src[IRQ_BUS_ERR],
                    s_adr[S_AES][29:10], s_cti[S_AES], s_bte[S_AES],
                    s_adr[S_XIP][29:10], s_cti[S_XIP], s_bte[S_XIP],
                    s_adr[S_DMA][29:10], s_cti[S_DMA], s_bte[S_DMA],
                    bus_prio[7:NUM_MASTERS]};

endmodule

`default_nettype wire
