// SPDX-License-Identifier: Apache-2.0
// Wishbone B4 classic slave to a register port (peakrdl-regblock `passthrough` CPU interface).
`default_nettype none

// CYC & STB is the request (Wishbone B4: a decoder may fan STB out to every slave and select with
// CYC, as LiteX's does), SEL the byte enables; ACK acknowledges without error, ERR with one.
// CycGated = 0 takes STB alone, for an interconnect that raises STB only at the selected slave
// inside a cycle (the aesoc crossbar): it keeps the request off the crossbar's grant logic, which
// would otherwise close false combinational loops (as the simulator's lint reports them) through
// the register file.
// The register file answers its own registers in the request cycle and masks a request held
// while an external register access is outstanding, so a classic master that holds STB until
// ACK needs nothing more. A classic master ends an access only with ACK or ERR, so an access
// still outstanding (the stall outputs) while the request is down was abandoned: the master
// dropped its cycle, as the aesoc crossbar does at its slave timeout. reg_abort_o then has the
// core complete it without effect (the write dropped, the read cancelled), in that same cycle,
// and ACK/ERR are only given with a request, so that late answer reaches no master and the next
// access is served normally. This is the bus the aesoc crossbar speaks; the mapping adds no
// cycle.
module reg_bridge_wbc #(
  parameter int unsigned AddrWidth = 12,    // byte-address bits of the register port
  parameter bit          CycGated  = 1'b1   // 0: STB alone is the request (see above)
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

  assign reg_req_o       = wb_stb_i & (wb_cyc_i | ~CycGated);
  assign reg_req_is_wr_o = wb_we_i;
  assign reg_addr_o      = {wb_adr_i, 2'b00};
  assign reg_wr_data_o   = wb_dat_i;
  for (genvar i = 0; i < 4; i++) begin : gen_biten
    assign reg_wr_biten_o[8*i +: 8] = {8{wb_sel_i[i]}};
  end

  // The register file raises both stall outputs while an external access is outstanding.
  assign reg_abort_o = reg_req_stall_rd_i & ~reg_req_o;

  assign wb_dat_o = reg_rd_data_i;
  assign wb_err_o = (reg_rd_err_i | reg_wr_err_i) & reg_req_o;
  assign wb_ack_o = (reg_rd_ack_i | reg_wr_ack_i) & reg_req_o & ~(reg_rd_err_i | reg_wr_err_i);

  logic unused;
  assign unused = reg_req_stall_wr_i;

endmodule

`default_nettype wire
