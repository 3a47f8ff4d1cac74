// SPDX-License-Identifier: Apache-2.0
// Testbench top for the XIP controller: xip wired to the qspi_flash model, Wishbone ports out.
`default_nettype none

module tb_xip #(
  parameter int unsigned PrefetchWords = 16,
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
  output logic              flash_err_o,
  output logic              irq_o
);

  logic       sck, cs_n;
  logic [3:0] io_m, oe_m, io_f, oe_f, io_in;

  // Board: lines nobody drives are pulled up.
  assign io_in = (io_f & oe_f) | ~oe_f;

  xip #(
    .PrefetchWords (PrefetchWords)
  ) u_xip (
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
    .flash_sck_o   (sck),
    .flash_cs_no   (cs_n),
    .flash_io_o    (io_m),
    .flash_io_oe_o (oe_m),
    .flash_io_i    (io_in),
    .irq_o         (irq_o)
  );

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
