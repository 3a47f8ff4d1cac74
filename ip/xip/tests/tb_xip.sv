// SPDX-License-Identifier: Apache-2.0
// Testbench top for the XIP controller: xip wired to the qspi_flash model, Wishbone ports out.
`default_nettype none

module tb_xip #(
  parameter int unsigned PrefetchWords = 16,
  parameter int unsigned VerifiedLines = 4,
  parameter int unsigned TagRun        = 2,
  parameter int unsigned ModelBytes    = 1024 * 1024
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
  input  wire logic         otp_integ_req_i,
  input  wire logic [31:0]  otp_min_version_i,
  output logic              flash_err_o,
  output logic              irq_o
);

  logic       sck, cs_n;
  logic [3:0] io_m, oe_m, io_f, oe_f, io_in;

  // Board: lines nobody drives are pulled up.
  assign io_in = (io_f & oe_f) | ~oe_f;

  // Simulation clock gating: u_xip runs on a clock gated by its idle_o as the SoC's simulation
  // model gates it (ip/clock_gate: enable taken while the clock is low, reset runs it), so every
  // test runs the gated controller. With XIP_IDLE_REF, u_ref runs beside it on the free-running
  // clock with the same inputs: the edges u_xip misses must be unobservable, so the two must
  // agree on every output in every cycle. (Not in the default build: the second instance makes
  // the model's VPI symbol table take tens of minutes to compile at -O1.)
  logic idle, gate_en, gclk;

  always_latch begin
    if (!clk_i) begin
      gate_en = ~idle | ~rst_ni;
    end
  end
  assign gclk = clk_i & gate_en;

  xip #(
    .PrefetchWords (PrefetchWords),
    .VerifiedLines (VerifiedLines),
    .TagRun        (TagRun)
  ) u_xip (
    .clk_i         (gclk),
    .rst_ni        (rst_ni),
    .wb_cyc_i      (wb_cyc_i),
    .wb_stb_i      (wb_stb_i),
    .wb_we_i       (wb_we_i),
    .wb_adr_i      (wb_adr_i),
    .wb_dat_i      (wb_dat_i),
    .wb_sel_i      (wb_sel_i),
    .wb_cti_i      (wb_cti_i),
    .wb_bte_i      (wb_bte_i),
    .wb_dat_o      (wb_dat_o),
    .wb_ack_o      (wb_ack_o),
    .wb_err_o      (wb_err_o),
    .reg_cyc_i     (reg_cyc_i),
    .reg_stb_i     (reg_stb_i),
    .reg_we_i      (reg_we_i),
    .reg_adr_i     (reg_adr_i),
    .reg_dat_i     (reg_dat_i),
    .reg_sel_i     (reg_sel_i),
    .reg_dat_o     (reg_dat_o),
    .reg_ack_o     (reg_ack_o),
    .reg_err_o     (reg_err_o),
    .otp_kek_i     (otp_kek_i),
    .otp_integ_req_i   (otp_integ_req_i),
    .otp_min_version_i (otp_min_version_i),
    .flash_sck_o   (sck),
    .flash_cs_no   (cs_n),
    .flash_io_o    (io_m),
    .flash_io_oe_o (oe_m),
    .flash_io_i    (io_in),
    .irq_o         (irq_o),
    .idle_o        (idle)
  );

`ifdef XIP_IDLE_REF
  logic [31:0] ref_wb_dat, ref_reg_dat;
  logic        ref_wb_ack, ref_wb_err, ref_reg_ack, ref_reg_err, ref_irq, ref_sck, ref_cs_n, ref_idle;
  logic [3:0]  ref_io, ref_oe;

  xip #(
    .PrefetchWords (PrefetchWords),
    .VerifiedLines (VerifiedLines),
    .TagRun        (TagRun)
  ) u_ref (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .wb_cyc_i      (wb_cyc_i),
    .wb_stb_i      (wb_stb_i),
    .wb_we_i       (wb_we_i),
    .wb_adr_i      (wb_adr_i),
    .wb_dat_i      (wb_dat_i),
    .wb_sel_i      (wb_sel_i),
    .wb_cti_i      (wb_cti_i),
    .wb_bte_i      (wb_bte_i),
    .wb_dat_o      (ref_wb_dat),
    .wb_ack_o      (ref_wb_ack),
    .wb_err_o      (ref_wb_err),
    .reg_cyc_i     (reg_cyc_i),
    .reg_stb_i     (reg_stb_i),
    .reg_we_i      (reg_we_i),
    .reg_adr_i     (reg_adr_i),
    .reg_dat_i     (reg_dat_i),
    .reg_sel_i     (reg_sel_i),
    .reg_dat_o     (ref_reg_dat),
    .reg_ack_o     (ref_reg_ack),
    .reg_err_o     (ref_reg_err),
    .otp_kek_i     (otp_kek_i),
    .otp_integ_req_i   (otp_integ_req_i),
    .otp_min_version_i (otp_min_version_i),
    .flash_sck_o   (ref_sck),
    .flash_cs_no   (ref_cs_n),
    .flash_io_o    (ref_io),
    .flash_io_oe_o (ref_oe),
    .flash_io_i    (io_in),
    .irq_o         (ref_irq),
    .idle_o        (ref_idle)
  );

  // Compared between the edges, when inputs and outputs have settled. Read data only where it is
  // acknowledged: the prefetch buffer has no reset.
  logic [79:0] outs, ref_outs;
  assign outs     = {wb_ack_o, wb_err_o, wb_ack_o ? wb_dat_o : 32'h0, reg_ack_o, reg_err_o,
                     reg_ack_o ? reg_dat_o : 32'h0, irq_o, sck, cs_n, io_m, oe_m, idle};
  assign ref_outs = {ref_wb_ack, ref_wb_err, ref_wb_ack ? ref_wb_dat : 32'h0, ref_reg_ack, ref_reg_err,
                     ref_reg_ack ? ref_reg_dat : 32'h0, ref_irq, ref_sck, ref_cs_n, ref_io, ref_oe,
                     ref_idle};
`endif

  longint unsigned cycles, idle_cycles;

  initial begin
    cycles      = 0;
    idle_cycles = 0;
  end

  // Idle cycles, for the log. In reset both sides are held and agree, so the check needs no
  // reset term.
  always @(negedge clk_i) begin
    cycles      <= cycles + 1;
    idle_cycles <= idle_cycles + longint'(idle);
`ifdef XIP_IDLE_REF
    if (outs != ref_outs) begin
      $error("idle check: gated u_xip %h differs from u_ref %h", outs, ref_outs);
    end
`endif
  end

  final begin
    $display("tb_xip: u_xip idle (clock stopped) in %0d of %0d cycles", idle_cycles, cycles);
  end

  qspi_flash #(
    .SizeBytes    (ModelBytes),
    .FatalOnError (1'b0)
  ) u_flash (
    .rst_ni  (rst_ni),
    .sck_i   (sck),
    .cs_ni   (cs_n),
    .io_i    (io_m),
    .io_oe_i (oe_m),
    .io_o    (io_f),
    .io_oe_o (oe_f),
    .err_o   (flash_err_o)
  );

endmodule

`default_nettype wire
