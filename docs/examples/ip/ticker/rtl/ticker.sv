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

  logic        en, ticks_read, irq_pending, irq_enable, reg_stall;
  logic [31:0] period;
  logic [31:0] count_q, count_d, ticks_q, ticks_d;
  logic        req_q, req_d, tick;

  ticker_reg u_reg (
    .clk                           (clk_i),
    .arst_n                        (rst_ni),
    .wb_cyc                        (wb_cyc_i),
    .wb_stb                        (wb_stb_i),
    .wb_we                         (wb_we_i),
    .wb_stall                      (reg_stall),
    .wb_adr                        ({wb_adr_i, 2'b00}),
    .wb_odat                       (wb_dat_i),
    .wb_sel                        (wb_sel_i),
    .wb_ack                        (wb_ack_o),
    .wb_err                        (wb_err_o),
    .wb_idat                       (wb_dat_o),
    .hwif_out_ctrl_en              (en),
    .hwif_out_period_cycles        (period),
    .hwif_in_ticks_count           (ticks_q),
    .hwif_out_ticks_count_swacc    (ticks_read),
    .hwif_out_irq_status_tick      (irq_pending),
    .hwif_in_irq_status_tick_hwset (tick),
    .hwif_out_irq_enable_tick      (irq_enable)
  );

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
  assign unused = reg_stall;  // the generated block never stalls

endmodule

`default_nettype wire
