// SPDX-License-Identifier: Apache-2.0
// Wishbone shell of the AES peripheral: bus glue only, everything else is in aes_periph.
`default_nettype none

// Wishbone B4 classic, the aesoc crossbar's bus, to the register port of aes_periph through the
// shared bridge (ip/reg_bridge/rtl/reg_bridge_wbc.sv says how). The same shell for other buses
// is generated: `python3 -m aesoc shells` (docs/integration.md).
module aes_wb #(
  parameter int unsigned RoundsPerCycle = 1,
  parameter bit          Pipelined      = 1'b0,
  parameter bit          DecEnable      = 1'b1,
  parameter int unsigned KeyLenMax      = 256,
  parameter int unsigned InDepth        = 2,
  parameter int unsigned OutDepth       = 2,
  parameter int unsigned GhashBits      = 16
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
  output logic             dma_in_req_o,
  output logic             dma_out_req_o
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

  aes_periph #(
    .RoundsPerCycle (RoundsPerCycle),
    .Pipelined      (Pipelined),
    .DecEnable      (DecEnable),
    .KeyLenMax      (KeyLenMax),
    .InDepth        (InDepth),
    .OutDepth       (OutDepth),
    .GhashBits      (GhashBits)
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
    .irq_o              (irq_o),
    .dma_in_req_o       (dma_in_req_o),
    .dma_out_req_o      (dma_out_req_o)
  );

endmodule

`default_nettype wire
