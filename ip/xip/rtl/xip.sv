// SPDX-License-Identifier: Apache-2.0
// Wishbone shell of the XIP flash controller: bus glue only, everything else is in xip_periph.
`default_nettype none

// Two Wishbone B4 classic slaves:
//   wb_*  the flash window (0x2000_0000, cached, and its alias 0xA000_0000: the controller only
//         looks at the low word-address bits, so both views are the same). Reads of any width
//         return the whole word; single reads and incrementing bursts are served alike, one beat
//         per ready word. Writes end in ERR.
//   reg_* the registers (4 KB window, ACK in the STB cycle) through the shared Wishbone classic
//         bridge (ip/reg_bridge/rtl/reg_bridge_wbc.sv).
// otp_kek_i is the key-encryption key from OTP: it only ever reaches the unwrap engine.
module xip #(
  parameter int unsigned FlashBytes       = 16 * 1024 * 1024,  // power of two, at most 16 MB
  parameter int unsigned PrefetchWords    = 16,                // 16 words = 2 x 32-byte lines
  parameter int unsigned KsRoundsPerCycle = 1,                 // keystream AES core
  parameter bit          Integrity        = 1'b1,              // per-line AES-CMAC checks
  parameter int unsigned VerifiedLines    = 4,                 // verified-line buffer (0: none)
  parameter int unsigned TagRun           = 2,                 // SEPARATE: tags per run of a linear stream
  parameter int unsigned SBoxImpl         = 0                  // AES S-boxes: 0 tower field, 1 tables
) (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,

  input  wire logic         wb_cyc_i,
  input  wire logic         wb_stb_i,
  input  wire logic         wb_we_i,
  input  wire logic [29:0]  wb_adr_i,
  input  wire logic [31:0]  wb_dat_i,
  input  wire logic [3:0]   wb_sel_i,
  input  wire logic [2:0]   wb_cti_i,
  input  wire logic [1:0]   wb_bte_i,
  output logic      [31:0]  wb_dat_o,
  output logic              wb_ack_o,
  output logic              wb_err_o,

  input  wire logic         reg_cyc_i,
  input  wire logic         reg_stb_i,
  input  wire logic         reg_we_i,
  input  wire logic [9:0]   reg_adr_i,
  input  wire logic [31:0]  reg_dat_i,
  input  wire logic [3:0]   reg_sel_i,
  output logic      [31:0]  reg_dat_o,
  output logic              reg_ack_o,
  output logic              reg_err_o,

  /* verilator tracing_off */
  input  wire logic [127:0] otp_kek_i,
  /* verilator tracing_on */
  input  wire logic         otp_integ_req_i,    // OTP policy: integrity required
  input  wire logic [31:0]  otp_min_version_i,  // OTP anti-rollback minimum version

  output logic              flash_sck_o,
  output logic              flash_cs_no,
  output logic      [3:0]   flash_io_o,
  output logic      [3:0]   flash_io_oe_o,
  input  wire logic [3:0]   flash_io_i,

  output logic              irq_o,         // an integrity failure (INTEG_STATUS, INTEG_IE)

  // Simulation clock gating (ip/clock_gate): no register here would change at this clock edge,
  // so the SoC's simulation model may skip it.
  output logic              idle_o
);

  localparam int unsigned AW = $clog2(FlashBytes / 4);

  logic win_err, periph_idle;

  // Register port between the Wishbone bridge and the core.
  logic        reg_req, reg_req_is_wr, reg_req_stall_wr, reg_req_stall_rd;
  logic        reg_rd_ack, reg_rd_err, reg_wr_ack, reg_wr_err;
  logic [11:0] reg_addr;
  logic [31:0] reg_wr_data, reg_wr_biten, reg_rd_data;
  logic unused_reg_abort;  // the core answers every register access at once: nothing to abandon

  // The aesoc crossbar raises STB only at the selected slave (reg_bridge_wbc says why).
  reg_bridge_wbc #(.CycGated(1'b0)) u_bridge (
    .wb_cyc_i           (reg_cyc_i),
    .wb_stb_i           (reg_stb_i),
    .wb_we_i            (reg_we_i),
    .wb_adr_i           (reg_adr_i),
    .wb_dat_i           (reg_dat_i),
    .wb_sel_i           (reg_sel_i),
    .wb_dat_o           (reg_dat_o),
    .wb_ack_o           (reg_ack_o),
    .wb_err_o           (reg_err_o),
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
    .win_req_i          (wb_cyc_i & wb_stb_i & ~wb_we_i),
    .win_addr_i         (wb_adr_i[AW-1:0]),
    .win_ack_o          (wb_ack_o),
    .win_err_o          (win_err),
    .win_rdata_o        (wb_dat_o),
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

  // Writes to the flash window end in ERR, and so do reads of a line that failed its check.
  assign wb_err_o = (wb_cyc_i & wb_stb_i & wb_we_i) | win_err;

  // The bridge has no state; CYC or STB on either slave (not only a whole request) keeps the
  // controller clocked.
  assign idle_o = !wb_cyc_i && !wb_stb_i && !reg_cyc_i && !reg_stb_i && periph_idle;

  logic unused;
  assign unused = ^{wb_adr_i[29:AW], wb_dat_i, wb_sel_i, wb_cti_i, wb_bte_i};

endmodule

`default_nettype wire
