// SPDX-License-Identifier: Apache-2.0
// Wishbone B4 pipelined slave to a register port (peakrdl-regblock `passthrough` CPU interface).
`default_nettype none

// A request is CYC & STB in a cycle without STALL (a decoder may fan STB out to every slave and
// select with CYC); SEL are the byte enables. Acknowledges (ACK,
// or ERR for an error) come in request order, at the earliest in the request cycle. STALL holds
// a request while an external register access (e.g. an AES DATA_IN write to a full input FIFO)
// is outstanding; the master keeps STB and its signals until STALL drops. A master ends its
// cycle (CYC down) only once every request is answered, so an access still outstanding without
// CYC was abandoned (a bus timeout): reg_abort_o has the core complete it without effect in that
// cycle, and ACK/ERR are only given inside a cycle, so that late answer reaches no master.
module reg_bridge_wbp #(
  parameter int unsigned AddrWidth = 12  // byte-address bits of the register port
) (
  input  wire logic                   wb_cyc_i,
  input  wire logic                   wb_stb_i,
  input  wire logic                   wb_we_i,
  input  wire logic [AddrWidth-3:0]   wb_adr_i,  // word address
  input  wire logic [31:0]            wb_dat_i,
  input  wire logic [3:0]             wb_sel_i,
  output logic      [31:0]            wb_dat_o,
  output logic                        wb_ack_o,
  output logic                        wb_err_o,
  output logic                        wb_stall_o,
  // Register port (to the core's reg_* inputs and from its outputs).
  output logic                        reg_req_o,
  output logic                        reg_req_is_wr_o,
  output logic      [AddrWidth-1:0]   reg_addr_o,
  output logic      [31:0]            reg_wr_data_o,
  output logic      [31:0]            reg_wr_biten_o,
  output logic                        reg_abort_o,
  input  wire logic                   reg_req_stall_wr_i,
  input  wire logic                   reg_req_stall_rd_i,
  input  wire logic                   reg_rd_ack_i,
  input  wire logic                   reg_rd_err_i,
  input  wire logic [31:0]            reg_rd_data_i,
  input  wire logic                   reg_wr_ack_i,
  input  wire logic                   reg_wr_err_i
);

  // The register file ignores a request while it stalls it, so the request need not be gated.
  assign reg_req_o       = wb_cyc_i & wb_stb_i;
  assign reg_req_is_wr_o = wb_we_i;
  assign reg_addr_o      = {wb_adr_i, 2'b00};
  assign reg_wr_data_o   = wb_dat_i;
  for (genvar i = 0; i < 4; i++) begin : gen_biten
    assign reg_wr_biten_o[8*i +: 8] = {8{wb_sel_i[i]}};
  end

  assign wb_stall_o  = reg_req_o & (wb_we_i ? reg_req_stall_wr_i : reg_req_stall_rd_i);
  // The register file raises both stall outputs while an external access is outstanding.
  assign reg_abort_o = reg_req_stall_rd_i & ~wb_cyc_i;
  assign wb_dat_o    = reg_rd_data_i;
  assign wb_err_o    = (reg_rd_err_i | reg_wr_err_i) & wb_cyc_i;
  assign wb_ack_o    = (reg_rd_ack_i | reg_wr_ack_i) & wb_cyc_i & ~wb_err_o;

endmodule

`default_nettype wire
