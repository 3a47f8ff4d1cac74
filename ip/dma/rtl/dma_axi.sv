// SPDX-License-Identifier: Apache-2.0
// AXI4 shell of the DMA controller: AXI4-Lite register slave, AXI4 master for both engines.
`default_nettype none

// The alternative to dma_wb for an AXI system (ip.toml [top.axi]); dma_periph is the same.
// Register slave: the shared AXI4-Lite bridge (ip/reg_bridge/rtl/reg_bridge_axil.sv), with its
// bound MaxWait on a held access and its timeout_o. Master: the shared AXI4 burst master
// (ip/axi_master); the read engine drives its AR and R channels, the write engine AW, W and B;
// each keeps one burst outstanding, and the two run independently, as the two Wishbone masters
// do. AxQOS is 0xF during the bursts of a channel with CTRL.BUS_PRIO, else 0. Windows as in dma_wb.
module dma_axi #(
  parameter int unsigned          FifoDepth = 32,
  parameter int unsigned          NumReq    = 4,
  parameter int unsigned          NumWin    = 3,
  // SRAM0 (256 KB), SRAM1 (64 KB), the AES peripheral (4 KB) of the aesoc memory map.
  parameter logic [NumWin*32-1:0] WinBase   = {32'hF000_1000, 32'h1000_0000, 32'h0000_0000},
  parameter logic [NumWin*32-1:0] WinSize   = {32'h0000_1000, 32'h0001_0000, 32'h0004_0000},
  parameter int unsigned          MaxWait   = 512,   // bound of a held register access, 0: none (as the shells)
  parameter int unsigned          IdWidth   = 1      // AxID width; every burst uses ID 0
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // Register slave (AXI4-Lite, byte offset in a 4 KB window).
  input  wire logic        s_axil_awvalid,
  output logic             s_axil_awready,
  input  wire logic [dma_reg_pkg::DMA_REG_MIN_ADDR_WIDTH-1:0] s_axil_awaddr,
  input  wire logic [2:0]  s_axil_awprot,
  input  wire logic        s_axil_wvalid,
  output logic             s_axil_wready,
  input  wire logic [31:0] s_axil_wdata,
  input  wire logic [3:0]  s_axil_wstrb,
  output logic             s_axil_bvalid,
  input  wire logic        s_axil_bready,
  output logic      [1:0]  s_axil_bresp,
  input  wire logic        s_axil_arvalid,
  output logic             s_axil_arready,
  input  wire logic [dma_reg_pkg::DMA_REG_MIN_ADDR_WIDTH-1:0] s_axil_araddr,
  input  wire logic [2:0]  s_axil_arprot,
  output logic             s_axil_rvalid,
  input  wire logic        s_axil_rready,
  output logic      [31:0] s_axil_rdata,
  output logic      [1:0]  s_axil_rresp,
  output logic             timeout_o,
  // AXI4 master: read channels (read engine).
  output logic      [IdWidth-1:0] m_axi_arid,
  output logic      [31:0]        m_axi_araddr,
  output logic      [7:0]         m_axi_arlen,
  output logic      [2:0]         m_axi_arsize,
  output logic      [1:0]         m_axi_arburst,
  output logic                    m_axi_arlock,
  output logic      [3:0]         m_axi_arcache,
  output logic      [2:0]         m_axi_arprot,
  output logic      [3:0]         m_axi_arqos,
  output logic                    m_axi_arvalid,
  input  wire logic               m_axi_arready,
  input  wire logic [IdWidth-1:0] m_axi_rid,
  input  wire logic [31:0]        m_axi_rdata,
  input  wire logic [1:0]         m_axi_rresp,
  input  wire logic               m_axi_rlast,
  input  wire logic               m_axi_rvalid,
  output logic                    m_axi_rready,
  // AXI4 master: write channels (write engine).
  output logic      [IdWidth-1:0] m_axi_awid,
  output logic      [31:0]        m_axi_awaddr,
  output logic      [7:0]         m_axi_awlen,
  output logic      [2:0]         m_axi_awsize,
  output logic      [1:0]         m_axi_awburst,
  output logic                    m_axi_awlock,
  output logic      [3:0]         m_axi_awcache,
  output logic      [2:0]         m_axi_awprot,
  output logic      [3:0]         m_axi_awqos,
  output logic                    m_axi_awvalid,
  input  wire logic               m_axi_awready,
  output logic      [31:0]        m_axi_wdata,
  output logic      [3:0]         m_axi_wstrb,
  output logic                    m_axi_wlast,
  output logic                    m_axi_wvalid,
  input  wire logic               m_axi_wready,
  input  wire logic [IdWidth-1:0] m_axi_bid,
  input  wire logic [1:0]         m_axi_bresp,
  input  wire logic               m_axi_bvalid,
  output logic                    m_axi_bready,
  // Peripheral request lines (level: the peripheral can take / give one block now).
  input  wire logic [NumReq-1:0]  req_i,
  output logic                    irq_o,
  output logic      [3:0]         busy_o,
  // Simulation clock-gating hint: 1 only when the next clock edge would change no register of
  // the controller (ip/clock_gate).
  output logic                    idle_o
);

  logic        reg_req, reg_req_is_wr, reg_req_stall_wr, reg_req_stall_rd;
  logic        reg_rd_ack, reg_rd_err, reg_wr_ack, reg_wr_err;
  logic [dma_reg_pkg::DMA_REG_MIN_ADDR_WIDTH-1:0] reg_addr;
  logic [31:0] reg_wr_data, reg_wr_biten, reg_rd_data;
  logic unused_reg_abort;  // the core answers every register access at once: nothing to abandon
  logic        rd_req, rd_burst, rd_more, rd_fixed, rd_prio, rd_ack, rd_err;
  logic        wr_req, wr_burst, wr_more, wr_fixed, wr_prio, wr_ack, wr_err;
  logic [29:0] rd_addr, wr_addr;
  logic [3:0]  rd_beats, wr_beats;
  logic [31:0] rd_data, wr_data;
  logic        periph_idle, axi_idle;
  logic        axil_busy_q;   // an AXI4-Lite access taken and not yet answered (for idle_o)

  reg_bridge_axil #(
    .AddrWidth (dma_reg_pkg::DMA_REG_MIN_ADDR_WIDTH),
    .MaxWait   (MaxWait)
  ) u_bridge (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .s_axil_awvalid     (s_axil_awvalid),
    .s_axil_awready     (s_axil_awready),
    .s_axil_awaddr      (s_axil_awaddr),
    .s_axil_awprot      (s_axil_awprot),
    .s_axil_wvalid      (s_axil_wvalid),
    .s_axil_wready      (s_axil_wready),
    .s_axil_wdata       (s_axil_wdata),
    .s_axil_wstrb       (s_axil_wstrb),
    .s_axil_bvalid      (s_axil_bvalid),
    .s_axil_bready      (s_axil_bready),
    .s_axil_bresp       (s_axil_bresp),
    .s_axil_arvalid     (s_axil_arvalid),
    .s_axil_arready     (s_axil_arready),
    .s_axil_araddr      (s_axil_araddr),
    .s_axil_arprot      (s_axil_arprot),
    .s_axil_rvalid      (s_axil_rvalid),
    .s_axil_rready      (s_axil_rready),
    .s_axil_rdata       (s_axil_rdata),
    .s_axil_rresp       (s_axil_rresp),
    .timeout_o          (timeout_o),
    .reg_req_o          (reg_req),
    .reg_req_is_wr_o    (reg_req_is_wr),
    .reg_addr_o         (reg_addr),
    .reg_wr_data_o      (reg_wr_data),
    .reg_wr_biten_o     (reg_wr_biten),
    .reg_abort_o        (unused_reg_abort),
    .reg_req_stall_wr_i (reg_req_stall_wr),
    .reg_req_stall_rd_i (reg_req_stall_rd),
    .reg_rd_ack_i       (reg_rd_ack),
    .reg_rd_err_i       (reg_rd_err),
    .reg_rd_data_i      (reg_rd_data),
    .reg_wr_ack_i       (reg_wr_ack),
    .reg_wr_err_i       (reg_wr_err)
  );

  dma_periph #(
    .FifoDepth (FifoDepth),
    .NumReq    (NumReq),
    .NumWin    (NumWin),
    .WinBase   (WinBase),
    .WinSize   (WinSize)
  ) u_periph (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .reg_req_i          (reg_req),
    .reg_req_is_wr_i    (reg_req_is_wr),
    .reg_addr_i         (reg_addr),
    .reg_wr_data_i      (reg_wr_data),
    .reg_wr_biten_i     (reg_wr_biten),
    .reg_req_stall_wr_o (reg_req_stall_wr),
    .reg_req_stall_rd_o (reg_req_stall_rd),
    .reg_rd_ack_o       (reg_rd_ack),
    .reg_rd_err_o       (reg_rd_err),
    .reg_rd_data_o      (reg_rd_data),
    .reg_wr_ack_o       (reg_wr_ack),
    .reg_wr_err_o       (reg_wr_err),
    .rd_req_o           (rd_req),
    .rd_addr_o          (rd_addr),
    .rd_burst_o         (rd_burst),
    .rd_more_o          (rd_more),
    .rd_beats_o         (rd_beats),
    .rd_fixed_o         (rd_fixed),
    .rd_prio_o          (rd_prio),
    .rd_data_i          (rd_data),
    .rd_ack_i           (rd_ack),
    .rd_err_i           (rd_err),
    .wr_req_o           (wr_req),
    .wr_addr_o          (wr_addr),
    .wr_burst_o         (wr_burst),
    .wr_more_o          (wr_more),
    .wr_beats_o         (wr_beats),
    .wr_fixed_o         (wr_fixed),
    .wr_prio_o          (wr_prio),
    .wr_data_o          (wr_data),
    .wr_ack_i           (wr_ack),
    .wr_err_i           (wr_err),
    .req_i              (req_i),
    .irq_o              (irq_o),
    .busy_o             (busy_o),
    .idle_o             (periph_idle)
  );

  axi_master #(.IdWidth(IdWidth)) u_master (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .rd_req_i      (rd_req),
    .rd_addr_i     (rd_addr),
    .rd_beats_i    (rd_beats),
    .rd_fixed_i    (rd_fixed),
    .rd_prio_i     (rd_prio),
    .rd_data_o     (rd_data),
    .rd_ack_o      (rd_ack),
    .rd_err_o      (rd_err),
    .wr_req_i      (wr_req),
    .wr_addr_i     (wr_addr),
    .wr_beats_i    (wr_beats),
    .wr_fixed_i    (wr_fixed),
    .wr_prio_i     (wr_prio),
    .wr_data_i     (wr_data),
    .wr_ack_o      (wr_ack),
    .wr_err_o      (wr_err),
    .m_axi_arid    (m_axi_arid),
    .m_axi_araddr  (m_axi_araddr),
    .m_axi_arlen   (m_axi_arlen),
    .m_axi_arsize  (m_axi_arsize),
    .m_axi_arburst (m_axi_arburst),
    .m_axi_arlock  (m_axi_arlock),
    .m_axi_arcache (m_axi_arcache),
    .m_axi_arprot  (m_axi_arprot),
    .m_axi_arqos   (m_axi_arqos),
    .m_axi_arvalid (m_axi_arvalid),
    .m_axi_arready (m_axi_arready),
    .m_axi_rid     (m_axi_rid),
    .m_axi_rdata   (m_axi_rdata),
    .m_axi_rresp   (m_axi_rresp),
    .m_axi_rlast   (m_axi_rlast),
    .m_axi_rvalid  (m_axi_rvalid),
    .m_axi_rready  (m_axi_rready),
    .m_axi_awid    (m_axi_awid),
    .m_axi_awaddr  (m_axi_awaddr),
    .m_axi_awlen   (m_axi_awlen),
    .m_axi_awsize  (m_axi_awsize),
    .m_axi_awburst (m_axi_awburst),
    .m_axi_awlock  (m_axi_awlock),
    .m_axi_awcache (m_axi_awcache),
    .m_axi_awprot  (m_axi_awprot),
    .m_axi_awqos   (m_axi_awqos),
    .m_axi_awvalid (m_axi_awvalid),
    .m_axi_awready (m_axi_awready),
    .m_axi_wdata   (m_axi_wdata),
    .m_axi_wstrb   (m_axi_wstrb),
    .m_axi_wlast   (m_axi_wlast),
    .m_axi_wvalid  (m_axi_wvalid),
    .m_axi_wready  (m_axi_wready),
    .m_axi_bid     (m_axi_bid),
    .m_axi_bresp   (m_axi_bresp),
    .m_axi_bvalid  (m_axi_bvalid),
    .m_axi_bready  (m_axi_bready),
    .idle_o        (axi_idle)
  );

  // ---- idle_o (simulation clock gating) ----
  // reg_bridge_axil keeps its state inside: axil_busy_q mirrors it from the handshakes, set when
  // an access is taken (AWREADY/ARREADY) and cleared with its B or R handshake. Outside that
  // window the bridge and its reg_bridge_core are idle (the core's wait counter clears in the
  // cycle after the register file answers, while B/R is still pending), and their registers move
  // only when an access is taken, so a VALID on AW, W or AR keeps the controller awake. The AXI
  // master: no burst running or asked for.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      axil_busy_q <= 1'b0;
    end else if (s_axil_awready || s_axil_arready) begin
      axil_busy_q <= 1'b1;
    end else if ((s_axil_bvalid && s_axil_bready) || (s_axil_rvalid && s_axil_rready)) begin
      axil_busy_q <= 1'b0;
    end
  end

  assign idle_o = periph_idle & axi_idle & ~axil_busy_q &
                  ~s_axil_awvalid & ~s_axil_wvalid & ~s_axil_arvalid;

  // AXI bursts take their length up front (beats), not the Wishbone end-of-burst flags.
  logic unused;
  assign unused = ^{rd_burst, rd_more, wr_burst, wr_more};

endmodule

`default_nettype wire
