// SPDX-License-Identifier: Apache-2.0
// Wishbone shell of system control: bus glue only, everything else is in sysctrl_periph.
`default_nettype none

// The shared Wishbone classic bridge (ip/reg_bridge/rtl/reg_bridge_wbc.sv) in front of the core;
// this block never stalls.
module sysctrl (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // Wishbone classic slave (word address, local offset only)
  input  wire logic              wb_cyc_i,
  input  wire logic              wb_stb_i,
  input  wire logic              wb_we_i,
  input  wire logic [9:0]        wb_adr_i,
  input  wire logic [31:0]       wb_dat_i,
  input  wire logic [3:0]        wb_sel_i,
  output logic [31:0]            wb_dat_o,
  output logic                   wb_ack_o,
  output logic                   wb_err_o,
  // Harness-facing events
  output logic                   exit_valid_o,
  output logic [7:0]             exit_code_o,
  output logic                   console_valid_o,
  output logic [7:0]             console_char_o,
  // Interrupts
  input  wire logic [31:1]  irq_src_i,
  output logic [31:0]            irq_o,
  output logic                   timer_irq_o,
  output logic [7:0]             bus_prio_o,
  // A bus error seen by a master that cannot take ERR itself
  input  wire logic              bus_err_i,
  input  wire logic [3:0]        bus_err_master_i,
  input  wire logic [31:0]       bus_err_addr_i
);

  // Register port between the Wishbone bridge and the core.
  logic        reg_req, reg_req_is_wr, reg_req_stall_wr, reg_req_stall_rd;
  logic        reg_rd_ack, reg_rd_err, reg_wr_ack, reg_wr_err;
  logic [11:0] reg_addr;
  logic [31:0] reg_wr_data, reg_wr_biten, reg_rd_data;

  // The aesoc crossbar raises STB only at the selected slave (reg_bridge_wbc says why).
  reg_bridge_wbc #(.CycGated(1'b0)) u_bridge (
    .wb_cyc_i           (wb_cyc_i),
    .wb_stb_i           (wb_stb_i),
    .wb_we_i            (wb_we_i),
    .wb_adr_i           (wb_adr_i),
    .wb_dat_i           (wb_dat_i),
    .wb_sel_i           (wb_sel_i),
    .wb_dat_o           (wb_dat_o),
    .wb_ack_o           (wb_ack_o),
    .wb_err_o           (wb_err_o),
    .reg_req_o          (reg_req),
    .reg_req_is_wr_o    (reg_req_is_wr),
    .reg_addr_o         (reg_addr),
    .reg_wr_data_o      (reg_wr_data),
    .reg_wr_biten_o     (reg_wr_biten),
    .reg_req_stall_wr_i (reg_req_stall_wr),
    .reg_req_stall_rd_i (reg_req_stall_rd),
    .reg_rd_ack_i       (reg_rd_ack),
    .reg_rd_err_i       (reg_rd_err),
    .reg_rd_data_i      (reg_rd_data),
    .reg_wr_ack_i       (reg_wr_ack),
    .reg_wr_err_i       (reg_wr_err)
  );

  sysctrl_periph u_periph (
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
    .exit_valid_o       (exit_valid_o),
    .exit_code_o        (exit_code_o),
    .console_valid_o    (console_valid_o),
    .console_char_o     (console_char_o),
    .irq_src_i          (irq_src_i),
    .irq_o              (irq_o),
    .timer_irq_o        (timer_irq_o),
    .bus_prio_o         (bus_prio_o),
    .bus_err_i          (bus_err_i),
    .bus_err_master_i   (bus_err_master_i),
    .bus_err_addr_i     (bus_err_addr_i)
  );

endmodule

`default_nettype wire
