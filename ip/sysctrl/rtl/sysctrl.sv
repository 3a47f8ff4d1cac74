// SPDX-License-Identifier: Apache-2.0
// Wishbone shell of system control: bus glue only, everything else is in sysctrl_periph.
`default_nettype none

// STB is the request, SEL the byte enables, ACK an acknowledge without error, ERR an error
// acknowledge (peakrdl-regblock's wishbone CPU interface mapping). CYC is not needed: the
// crossbar only raises STB inside a cycle, and this block never stalls.
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

  logic [31:0] biten;
  logic        stall_wr, stall_rd, rd_ack, rd_err, wr_ack, wr_err;
  logic        unused;

  for (genvar i = 0; i < 4; i++) begin : gen_biten
    assign biten[8*i +: 8] = {8{wb_sel_i[i]}};
  end

  sysctrl_periph u_periph (
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

  assign wb_err_o = rd_err | wr_err;
  assign wb_ack_o = (rd_ack | wr_ack) & ~wb_err_o;
  assign unused   = ^{wb_cyc_i, stall_wr, stall_rd};

endmodule

`default_nettype wire
