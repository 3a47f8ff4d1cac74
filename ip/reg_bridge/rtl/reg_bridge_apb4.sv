// SPDX-License-Identifier: Apache-2.0
// APB4 completer to a register port (peakrdl-regblock `passthrough` CPU interface).
`default_nettype none

// The setup phase (PSEL, not PENABLE) starts the access; PREADY rises in the access phase in the
// cycle the register file answers, so a register that answers at once takes the APB minimum of
// two cycles. PSLVERR comes with PREADY for an unmapped offset or a refused access (the
// register file's error answer), a PADDR that is not a multiple of 4 (refused here, nothing is
// accessed), or an access that waited MaxWait cycles (reg_bridge_core: then also a timeout_o
// pulse, and the held access is abandoned in the core). PSTRB are the byte enables of a write;
// PPROT is accepted and not checked.
// AMBA signal names (no _i/_o) so that tools and bus models recognise the interface.
module reg_bridge_apb4 #(
  parameter int unsigned AddrWidth = 12,   // byte-address bits of the register port
  parameter int unsigned MaxWait   = 512   // cycles PREADY may stay low; 0: no bound
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  input  wire logic                 s_apb_psel,
  input  wire logic                 s_apb_penable,
  input  wire logic                 s_apb_pwrite,
  input  wire logic [AddrWidth-1:0] s_apb_paddr,
  input  wire logic [31:0]          s_apb_pwdata,
  input  wire logic [3:0]           s_apb_pstrb,
  input  wire logic [2:0]           s_apb_pprot,
  output logic      [31:0]          s_apb_prdata,
  output logic                      s_apb_pready,
  output logic                      s_apb_pslverr,
  output logic                      timeout_o,
  // Register port.
  output logic                      reg_req_o,
  output logic                      reg_req_is_wr_o,
  output logic      [AddrWidth-1:0] reg_addr_o,
  output logic      [31:0]          reg_wr_data_o,
  output logic      [31:0]          reg_wr_biten_o,
  output logic                      reg_abort_o,
  input  wire logic                 reg_req_stall_wr_i,
  input  wire logic                 reg_req_stall_rd_i,
  input  wire logic                 reg_rd_ack_i,
  input  wire logic                 reg_rd_err_i,
  input  wire logic [31:0]          reg_rd_data_i,
  input  wire logic                 reg_wr_ack_i,
  input  wire logic                 reg_wr_err_i
);

  logic busy, done, done_err;

  reg_bridge_core #(
    .AddrWidth (AddrWidth),
    .MaxWait   (MaxWait)
  ) u_core (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .start_i            (s_apb_psel & ~s_apb_penable & ~busy),
    .start_wr_i         (s_apb_pwrite),
    .start_bad_i        (s_apb_paddr[1:0] != 2'b00),
    .start_addr_i       ({s_apb_paddr[AddrWidth-1:2], 2'b00}),
    .start_wdata_i      (s_apb_pwdata),
    .start_wstrb_i      (s_apb_pwrite ? s_apb_pstrb : 4'h0),
    .busy_o             (busy),
    .done_o             (done),
    .done_err_o         (done_err),
    .done_rdata_o       (s_apb_prdata),
    .timeout_o          (timeout_o),
    .reg_req_o          (reg_req_o),
    .reg_req_is_wr_o    (reg_req_is_wr_o),
    .reg_addr_o         (reg_addr_o),
    .reg_wr_data_o      (reg_wr_data_o),
    .reg_wr_biten_o     (reg_wr_biten_o),
    .reg_abort_o        (reg_abort_o),
    .reg_req_stall_wr_i (reg_req_stall_wr_i),
    .reg_req_stall_rd_i (reg_req_stall_rd_i),
    .reg_rd_ack_i       (reg_rd_ack_i),
    .reg_rd_err_i       (reg_rd_err_i),
    .reg_rd_data_i      (reg_rd_data_i),
    .reg_wr_ack_i       (reg_wr_ack_i),
    .reg_wr_err_i       (reg_wr_err_i)
  );

  assign s_apb_pready  = done;
  assign s_apb_pslverr = done & done_err;

  logic unused;
  assign unused = ^s_apb_pprot;

endmodule

`default_nettype wire
