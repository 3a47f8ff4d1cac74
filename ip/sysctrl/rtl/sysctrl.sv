// SPDX-License-Identifier: Apache-2.0
// System control peripheral: generated register block plus counters, timer and interrupt lines.
`default_nettype none

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

  logic [63:0] cycle_q;
  logic [31:0] cycle_hi_snap_q;
  logic        cycle_lo_read;
  logic [31:0] mtime_lo, mtime_hi, mtimecmp_lo, mtimecmp_hi;
  logic [63:0] mtime_next;
  logic [31:0] irq_soft;
  logic        reg_ack, reg_err;
  // The generated block never stalls, and keeps copies of write-only fields nobody reads.
  logic        reg_stall;
  logic [7:0]  sim_exit_stored, console_stored;
  logic        unused;
  logic        bus_err_pending;
  logic [3:0]  bus_err_master_q;
  logic [31:0] bus_err_addr_q;

  sysctrl_reg u_reg (
    .clk                            (clk_i),
    .arst_n                         (rst_ni),
    .wb_cyc                         (wb_cyc_i),
    .wb_stb                         (wb_stb_i),
    .wb_we                          (wb_we_i),
    .wb_stall                       (reg_stall),
    .wb_adr                         ({wb_adr_i, 2'b00}),
    .wb_odat                        (wb_dat_i),
    .wb_sel                         (wb_sel_i),
    .wb_ack                         (reg_ack),
    .wb_err                         (reg_err),
    .wb_idat                        (wb_dat_o),
    .hwif_out_sim_exit_code         (sim_exit_stored),
    .hwif_out_sim_exit_code_swmod   (exit_valid_o),
    .hwif_out_console_ch            (console_stored),
    .hwif_out_console_ch_swmod      (console_valid_o),
    .hwif_in_cycle_lo_count         (cycle_q[31:0]),
    .hwif_out_cycle_lo_count_swacc  (cycle_lo_read),
    .hwif_in_cycle_hi_count         (cycle_hi_snap_q),
    .hwif_in_mtime_lo_count         (mtime_next[31:0]),
    .hwif_out_mtime_lo_count        (mtime_lo),
    .hwif_in_mtime_lo_count_we      (1'b1),
    .hwif_in_mtime_hi_count         (mtime_next[63:32]),
    .hwif_out_mtime_hi_count        (mtime_hi),
    .hwif_in_mtime_hi_count_we      (1'b1),
    .hwif_out_mtimecmp_lo_cmp       (mtimecmp_lo),
    .hwif_out_mtimecmp_hi_cmp       (mtimecmp_hi),
    .hwif_in_irq_lines_lines        (irq_o),
    .hwif_out_irq_soft_lines        (irq_soft),
    .hwif_out_bus_prio_masters      (bus_prio_o),
    .hwif_out_bus_err_status_pending       (bus_err_pending),
    .hwif_in_bus_err_status_pending_hwset  (bus_err_i),
    .hwif_in_bus_err_status_master         (bus_err_master_q),
    .hwif_in_bus_err_addr_addr             (bus_err_addr_q)
  );

  // The generated block raises ACK together with ERR on a bad access; a master must see one.
  assign wb_ack_o = reg_ack & ~reg_err;
  assign wb_err_o = reg_err;
  assign unused   = ^{reg_stall, sim_exit_stored, console_stored};

  // The generated fields update a cycle after the write strobe; the harness wants the written
  // byte in the strobe cycle itself, which is the bus data.
  assign console_char_o = wb_dat_i[7:0];
  assign exit_code_o    = wb_dat_i[7:0];

  assign mtime_next  = {mtime_hi, mtime_lo} + 64'd1;
  assign timer_irq_o = {mtime_hi, mtime_lo} >= {mtimecmp_hi, mtimecmp_lo};
  // Line 0 is the bus error; peripheral sources use the lines above it.
  assign irq_o       = {irq_src_i, bus_err_pending} | irq_soft;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q         <= '0;
      cycle_hi_snap_q <= '0;
      bus_err_master_q <= '0;
      bus_err_addr_q   <= '0;
    end else begin
      // Keep the first error until software clears PENDING.
      if (bus_err_i && !bus_err_pending) begin
        bus_err_master_q <= bus_err_master_i;
        bus_err_addr_q   <= bus_err_addr_i;
      end
      cycle_q <= cycle_q + 64'd1;
      if (cycle_lo_read) begin
        cycle_hi_snap_q <= cycle_q[63:32];
      end
    end
  end

endmodule

`default_nettype wire
