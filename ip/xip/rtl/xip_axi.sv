// SPDX-License-Identifier: Apache-2.0
// AXI4 shell of the XIP flash controller: AXI4-Lite registers, the flash window as an AXI4 slave.
`default_nettype none

// The alternative to xip for an AXI system (ip.toml [top.axi]); xip_periph is the same.
//   s_axil_*  the registers (4 KB window) through the shared AXI4-Lite bridge
//             (ip/reg_bridge/rtl/reg_bridge_axil.sv), with its bound MaxWait and timeout_o.
//   s_axi_*   the flash window, 32-bit AXI4 read slave: INCR, WRAP and FIXED bursts, SLVERR for
//             a word that fails its check and for any write (xip_axi_win).
// otp_kek_i is the key-encryption key from OTP: it only ever reaches the unwrap engine.
module xip_axi #(
  parameter int unsigned FlashBytes       = 16 * 1024 * 1024,  // power of two, at most 16 MB
  parameter int unsigned PrefetchWords    = 16,                // 16 words = 2 x 32-byte lines
  parameter int unsigned KsRoundsPerCycle = 1,                 // keystream AES core
  parameter bit          Integrity        = 1'b1,              // per-line AES-CMAC checks
  parameter int unsigned VerifiedLines    = 4,                 // verified-line buffer (0: none)
  parameter int unsigned TagRun           = 2,                 // SEPARATE: tags per run of a linear stream
  parameter int unsigned SBoxImpl         = 0,                 // AES S-boxes: 0 tower field, 1 tables
  parameter int unsigned MaxWait          = 512,   // bound of a held register access, 0: none (as the shells)
  parameter int unsigned IdWidth          = 4      // AxID width of the window slave
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // Register slave (AXI4-Lite, byte offset in a 4 KB window).
  input  wire logic               s_axil_awvalid,
  output logic                    s_axil_awready,
  input  wire logic [xip_reg_pkg::XIP_REG_MIN_ADDR_WIDTH-1:0] s_axil_awaddr,
  input  wire logic [2:0]         s_axil_awprot,
  input  wire logic               s_axil_wvalid,
  output logic                    s_axil_wready,
  input  wire logic [31:0]        s_axil_wdata,
  input  wire logic [3:0]         s_axil_wstrb,
  output logic                    s_axil_bvalid,
  input  wire logic               s_axil_bready,
  output logic      [1:0]         s_axil_bresp,
  input  wire logic               s_axil_arvalid,
  output logic                    s_axil_arready,
  input  wire logic [xip_reg_pkg::XIP_REG_MIN_ADDR_WIDTH-1:0] s_axil_araddr,
  input  wire logic [2:0]         s_axil_arprot,
  output logic                    s_axil_rvalid,
  input  wire logic               s_axil_rready,
  output logic      [31:0]        s_axil_rdata,
  output logic      [1:0]         s_axil_rresp,
  output logic                    timeout_o,
  // Flash window (AXI4 slave; the low log2(FlashBytes) address bits select the byte).
  input  wire logic [IdWidth-1:0] s_axi_arid,
  input  wire logic [31:0]        s_axi_araddr,
  input  wire logic [7:0]         s_axi_arlen,
  input  wire logic [2:0]         s_axi_arsize,
  input  wire logic [1:0]         s_axi_arburst,
  input  wire logic               s_axi_arlock,
  input  wire logic [3:0]         s_axi_arcache,
  input  wire logic [2:0]         s_axi_arprot,
  input  wire logic [3:0]         s_axi_arqos,
  input  wire logic               s_axi_arvalid,
  output logic                    s_axi_arready,
  output logic      [IdWidth-1:0] s_axi_rid,
  output logic      [31:0]        s_axi_rdata,
  output logic      [1:0]         s_axi_rresp,
  output logic                    s_axi_rlast,
  output logic                    s_axi_rvalid,
  input  wire logic               s_axi_rready,
  input  wire logic [IdWidth-1:0] s_axi_awid,
  input  wire logic [31:0]        s_axi_awaddr,
  input  wire logic [7:0]         s_axi_awlen,
  input  wire logic [2:0]         s_axi_awsize,
  input  wire logic [1:0]         s_axi_awburst,
  input  wire logic               s_axi_awlock,
  input  wire logic [3:0]         s_axi_awcache,
  input  wire logic [2:0]         s_axi_awprot,
  input  wire logic [3:0]         s_axi_awqos,
  input  wire logic               s_axi_awvalid,
  output logic                    s_axi_awready,
  input  wire logic [31:0]        s_axi_wdata,
  input  wire logic [3:0]         s_axi_wstrb,
  input  wire logic               s_axi_wlast,
  input  wire logic               s_axi_wvalid,
  output logic                    s_axi_wready,
  output logic      [IdWidth-1:0] s_axi_bid,
  output logic      [1:0]         s_axi_bresp,
  output logic                    s_axi_bvalid,
  input  wire logic               s_axi_bready,

  /* verilator tracing_off */
  input  wire logic [127:0]       otp_kek_i,
  /* verilator tracing_on */
  input  wire logic               otp_integ_req_i,    // OTP policy: integrity required
  input  wire logic [31:0]        otp_min_version_i,  // OTP anti-rollback minimum version

  output logic                    flash_sck_o,
  output logic                    flash_cs_no,
  output logic      [3:0]         flash_io_o,
  output logic      [3:0]         flash_io_oe_o,
  input  wire logic [3:0]         flash_io_i,

  output logic                    irq_o,         // an integrity failure (INTEG_STATUS, INTEG_IE)

  // Simulation clock gating (ip/clock_gate): no register here would change at this clock edge.
  output logic                    idle_o
);

  localparam int unsigned AW = $clog2(FlashBytes / 4);

  logic          reg_req, reg_req_is_wr, reg_req_stall_wr, reg_req_stall_rd;
  logic          reg_rd_ack, reg_rd_err, reg_wr_ack, reg_wr_err;
  logic [xip_reg_pkg::XIP_REG_MIN_ADDR_WIDTH-1:0] reg_addr;
  logic [31:0]   reg_wr_data, reg_wr_biten, reg_rd_data;
  logic unused_reg_abort;  // the core answers every register access at once: nothing to abandon
  logic          win_req, win_ack, win_err;
  logic [AW-1:0] win_addr;
  logic [31:0]   win_rdata;
  logic          win_idle, periph_idle;

  reg_bridge_axil #(
    .AddrWidth (xip_reg_pkg::XIP_REG_MIN_ADDR_WIDTH),
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

  xip_axi_win #(
    .AW      (AW),
    .IdWidth (IdWidth)
  ) u_win (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .s_axi_arid    (s_axi_arid),
    .s_axi_araddr  (s_axi_araddr[AW+1:0]),
    .s_axi_arlen   (s_axi_arlen),
    .s_axi_arsize  (s_axi_arsize),
    .s_axi_arburst (s_axi_arburst),
    .s_axi_arvalid (s_axi_arvalid),
    .s_axi_arready (s_axi_arready),
    .s_axi_rid     (s_axi_rid),
    .s_axi_rdata   (s_axi_rdata),
    .s_axi_rresp   (s_axi_rresp),
    .s_axi_rlast   (s_axi_rlast),
    .s_axi_rvalid  (s_axi_rvalid),
    .s_axi_rready  (s_axi_rready),
    .s_axi_awid    (s_axi_awid),
    .s_axi_awvalid (s_axi_awvalid),
    .s_axi_awready (s_axi_awready),
    .s_axi_wlast   (s_axi_wlast),
    .s_axi_wvalid  (s_axi_wvalid),
    .s_axi_wready  (s_axi_wready),
    .s_axi_bid     (s_axi_bid),
    .s_axi_bresp   (s_axi_bresp),
    .s_axi_bvalid  (s_axi_bvalid),
    .s_axi_bready  (s_axi_bready),
    .win_req_o     (win_req),
    .win_addr_o    (win_addr),
    .win_ack_i     (win_ack),
    .win_err_i     (win_err),
    .win_rdata_i   (win_rdata),
    .idle_o        (win_idle)
  );

  xip_periph #(
    .FlashBytes       (FlashBytes),
    .PrefetchWords    (PrefetchWords),
    .KsRoundsPerCycle (KsRoundsPerCycle),
    .Integrity        (Integrity),
    .VerifiedLines    (VerifiedLines),
    .TagRun           (TagRun),
    .SBoxImpl         (SBoxImpl)
  ) u_periph (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .win_req_i          (win_req),
    .win_addr_i         (win_addr),
    .win_ack_o          (win_ack),
    .win_err_o          (win_err),
    .win_rdata_o        (win_rdata),
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
    .otp_kek_i          (otp_kek_i),
    .otp_integ_req_i    (otp_integ_req_i),
    .otp_min_version_i  (otp_min_version_i),
    .flash_sck_o        (flash_sck_o),
    .flash_cs_no        (flash_cs_no),
    .flash_io_o         (flash_io_o),
    .flash_io_oe_o      (flash_io_oe_o),
    .flash_io_i         (flash_io_i),
    .irq_o              (irq_o),
    .idle_o             (periph_idle)
  );

  // Simulation clock gating. The AXI4-Lite bridge is at rest when no AW, W or AR is offered and
  // no B or R is held: between taking an access and B/R its core raises reg_req for exactly one
  // cycle (xip_reg never stalls and answers in the request cycle, so the core never waits or
  // times out), which xip_periph counts as busy, and the cycle after, when the core's wait
  // counter returns to zero, B/R is up.
  assign idle_o = !s_axil_awvalid && !s_axil_wvalid && !s_axil_arvalid && !s_axil_bvalid
               && !s_axil_rvalid && win_idle && periph_idle;

  // Read-only window: write addresses and data are dropped; attributes need no action.
  logic unused;
  assign unused = ^{s_axi_araddr[31:AW+2], s_axi_arlock, s_axi_arcache, s_axi_arprot, s_axi_arqos, s_axi_awaddr, s_axi_awlen,
                    s_axi_awsize, s_axi_awburst, s_axi_awlock, s_axi_awcache, s_axi_awprot, s_axi_awqos,
                    s_axi_wdata, s_axi_wstrb};

endmodule

`default_nettype wire
