// SPDX-License-Identifier: Apache-2.0
// ticker: example peripheral. A tick every PERIOD cycles while CTRL.EN is set; each tick counts in
// TICKS, raises dma_req_o until TICKS is read, and sets IRQ_STATUS.TICK (irq_o when enabled).
`default_nettype none

module ticker (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // Wishbone classic slave (word address, local offset only)
  input  wire logic        wb_cyc_i,
  input  wire logic        wb_stb_i,
  input  wire logic        wb_we_i,
  input  wire logic [9:0]  wb_adr_i,
  input  wire logic [31:0] wb_dat_i,
  input  wire logic [3:0]  wb_sel_i,
  output logic [31:0]      wb_dat_o,
  output logic             wb_ack_o,
  output logic             wb_err_o,
  output logic             irq_o,
  output logic             dma_req_o
);

  logic        en, ticks_read, irq_pending, irq_enable;
  logic [31:0] period;
  logic [31:0] count_q, count_d, ticks_q, ticks_d;
  logic        req_q, req_d, tick;
  logic [31:0] biten;
  logic        stall_wr, stall_rd, rd_ack, rd_err, wr_ack, wr_err;

  ticker_reg_pkg::ticker__in_t  hwif_in;
  ticker_reg_pkg::ticker__out_t hwif_out;

  // Wishbone onto the generated block's request/response port (as every aesoc shell does).
  for (genvar i = 0; i < 4; i++) begin : gen_biten
    assign biten[8*i +: 8] = {8{wb_sel_i[i]}};
  end

  ticker_reg u_reg (
    .clk                  (clk_i),
    .arst_n               (rst_ni),
    .s_cpuif_req          (wb_stb_i),
    .s_cpuif_req_is_wr    (wb_we_i),
    .s_cpuif_addr         ({wb_adr_i, 2'b00}),
    .s_cpuif_wr_data      (wb_dat_i),
    .s_cpuif_wr_biten     (biten),
    .s_cpuif_req_stall_wr (stall_wr),
    .s_cpuif_req_stall_rd (stall_rd),
    .s_cpuif_rd_ack       (rd_ack),
    .s_cpuif_rd_err       (rd_err),
    .s_cpuif_rd_data      (wb_dat_o),
    .s_cpuif_wr_ack       (wr_ack),
    .s_cpuif_wr_err       (wr_err),
    .hwif_in              (hwif_in),
    .hwif_out             (hwif_out)
  );

  assign wb_err_o = rd_err | wr_err;
  assign wb_ack_o = (rd_ack | wr_ack) & ~wb_err_o;

  assign en          = hwif_out.CTRL.en.value;
  assign period      = hwif_out.PERIOD.cycles.value;
  assign ticks_read  = hwif_out.TICKS.count.swacc;
  assign irq_pending = hwif_out.IRQ_STATUS.tick.value;
  assign irq_enable  = hwif_out.IRQ_ENABLE.tick.value;
  assign hwif_in.TICKS.count.next      = ticks_q;
  assign hwif_in.IRQ_STATUS.tick.hwset = tick;

  always_comb begin
    tick    = en && (count_q <= 32'd1);
    count_d = !en ? period : (tick ? period : count_q - 32'd1);
    ticks_d = ticks_q + 32'(tick);
    // A tick in the cycle TICKS is read keeps the request: the new number is not read yet.
    req_d   = tick | (req_q & ~ticks_read);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      ticks_q <= '0;
      req_q   <= 1'b0;
    end else begin
      count_q <= count_d;
      ticks_q <= ticks_d;
      req_q   <= req_d;
    end
  end

  assign irq_o     = irq_pending & irq_enable;
  assign dma_req_o = req_q;

  logic unused;
  assign unused = ^{wb_cyc_i, stall_wr, stall_rd};  // the generated block never stalls

endmodule

`default_nettype wire
