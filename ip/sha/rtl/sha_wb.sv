// SPDX-License-Identifier: Apache-2.0
// Wishbone shell of the SHA peripheral: bus glue only, everything else is in sha_periph.
`default_nettype none

// Wishbone (pipelined, one request per STB cycle; no STALL) to the register port of sha_periph,
// the same mapping as peakrdl-regblock's wishbone CPU interface: STB is the request, SEL the
// byte enables, ACK any acknowledge without error, ERR an error acknowledge. CYC is not needed:
// the crossbar only raises STB inside a cycle.
module sha_wb #(
  parameter bit          Sha512Enable = 1'b1,
  parameter int unsigned InDepth      = 16
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
  output logic             dma_in_req_o
);

  logic [31:0] biten;
  logic        stall_wr, stall_rd, rd_ack, rd_err, wr_ack, wr_err;

  for (genvar i = 0; i < 4; i++) begin : gen_biten
    assign biten[8*i +: 8] = {8{wb_sel_i[i]}};
  end

  sha_periph #(
    .Sha512Enable (Sha512Enable),
    .InDepth      (InDepth)
  ) u_periph (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .reg_req_i          (wb_stb_i),
    .reg_req_is_wr_i    (wb_we_i),
    .reg_addr_i         ({wb_adr_i, 2'b00}),
    .reg_wr_data_i      (wb_dat_i),
    .reg_wr_biten_i     (biten),
    .reg_req_stall_wr_o (stall_wr),
    .reg_req_stall_rd_o (stall_rd),
    .reg_rd_ack_o       (rd_ack),
    .reg_rd_err_o       (rd_err),
    .reg_rd_data_o      (wb_dat_o),
    .reg_wr_ack_o       (wr_ack),
    .reg_wr_err_o       (wr_err),
    .irq_o              (irq_o),
    .dma_in_req_o       (dma_in_req_o)
  );

  assign wb_err_o = rd_err | wr_err;
  assign wb_ack_o = (rd_ack | wr_ack) & ~wb_err_o;

  // A held STB is masked inside the register file while an access is outstanding, so the
  // stall outputs need no bus signal here.
  logic unused;
  assign unused = ^{wb_cyc_i, stall_wr, stall_rd};

endmodule

`default_nettype wire
