// SPDX-License-Identifier: Apache-2.0
// System control, bus-neutral: register file, cycle counter, timer and interrupt lines.
`default_nettype none

// Register map: ip/sysctrl/data/sysctrl.rdl (docs/registers/sysctrl.md). The register port
// (reg_*) is peakrdl-regblock's `passthrough` CPU interface (ip/sysctrl/README.md); this block
// never stalls and acknowledges every access in its request cycle.
module sysctrl_periph (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // Register port
  input  wire logic              reg_req_i,
  input  wire logic              reg_req_is_wr_i,
  input  wire logic [11:0]       reg_addr_i,
  input  wire logic [31:0]       reg_wr_data_i,
  input  wire logic [31:0]       reg_wr_biten_i,
  output logic                   reg_req_stall_wr_o,
  output logic                   reg_req_stall_rd_o,
  output logic                   reg_rd_ack_o,
  output logic                   reg_rd_err_o,
  output logic [31:0]            reg_rd_data_o,
  output logic                   reg_wr_ack_o,
  output logic                   reg_wr_err_o,
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

  sysctrl_reg_pkg::sysctrl__in_t  hwif_in;
  sysctrl_reg_pkg::sysctrl__out_t hwif_out;

  logic [63:0] cycle_q;
  logic [31:0] cycle_hi_snap_q;
  logic [31:0] mtime_lo, mtime_hi, mtimecmp_lo, mtimecmp_hi;
  logic [63:0] mtime_next;
  logic        bus_err_pending;
  logic [3:0]  bus_err_master_q;
  logic [31:0] bus_err_addr_q;
  logic [7:0]  bus_prio_q;
  logic        unused;

  sysctrl_reg u_reg (
    .clk                  (clk_i),
    .arst_n               (rst_ni),
    .s_cpuif_req          (reg_req_i),
    .s_cpuif_req_is_wr    (reg_req_is_wr_i),
    .s_cpuif_addr         (reg_addr_i),
    .s_cpuif_wr_data      (reg_wr_data_i),
    .s_cpuif_wr_biten     (reg_wr_biten_i),
    .s_cpuif_req_stall_wr (reg_req_stall_wr_o),
    .s_cpuif_req_stall_rd (reg_req_stall_rd_o),
    .s_cpuif_rd_ack       (reg_rd_ack_o),
    .s_cpuif_rd_err       (reg_rd_err_o),
    .s_cpuif_rd_data      (reg_rd_data_o),
    .s_cpuif_wr_ack       (reg_wr_ack_o),
    .s_cpuif_wr_err       (reg_wr_err_o),
    .hwif_in              (hwif_in),
    .hwif_out             (hwif_out)
  );

  assign mtime_lo         = hwif_out.MTIME_LO.count.value;
  assign mtime_hi         = hwif_out.MTIME_HI.count.value;
  assign mtimecmp_lo      = hwif_out.MTIMECMP_LO.cmp.value;
  assign mtimecmp_hi      = hwif_out.MTIMECMP_HI.cmp.value;
  assign bus_err_pending  = hwif_out.BUS_ERR_STATUS.pending.value;
  assign exit_valid_o     = hwif_out.SIM_EXIT.code.swmod;
  assign console_valid_o  = hwif_out.CONSOLE.ch.swmod;

  assign hwif_in.CYCLE_LO.count.next           = cycle_q[31:0];
  assign hwif_in.CYCLE_HI.count.next           = cycle_hi_snap_q;
  assign hwif_in.MTIME_LO.count.next           = mtime_next[31:0];
  assign hwif_in.MTIME_LO.count.we             = 1'b1;
  assign hwif_in.MTIME_HI.count.next           = mtime_next[63:32];
  assign hwif_in.MTIME_HI.count.we             = 1'b1;
  assign hwif_in.IRQ_LINES.lines.next          = irq_o;
  assign hwif_in.BUS_ERR_STATUS.pending.hwset  = bus_err_i;
  assign hwif_in.BUS_ERR_STATUS.master.next    = bus_err_master_q;
  assign hwif_in.BUS_ERR_ADDR.addr.next        = bus_err_addr_q;

  // BUS_PRIO is an external register held here: the crossbar reads a variable of its own rather
  // than a field of hwif_out, whose write strobes depend on the crossbar's routing. A simulator
  // schedules the struct as one variable and would otherwise see a combinational loop (the crossbar,
  // every register file and the DMA evaluated to a fixed point each cycle). Same cycles as a field:
  // the write lands at the clock edge that ends the access, and the access is answered at once.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bus_prio_q <= '0;
    end else if (hwif_out.BUS_PRIO.req && hwif_out.BUS_PRIO.req_is_wr) begin
      bus_prio_q <= (bus_prio_q & ~hwif_out.BUS_PRIO.wr_biten.masters) |
                    (hwif_out.BUS_PRIO.wr_data.masters & hwif_out.BUS_PRIO.wr_biten.masters);
    end
  end

  assign hwif_in.BUS_PRIO.rd_ack          = hwif_out.BUS_PRIO.req && !hwif_out.BUS_PRIO.req_is_wr;
  assign hwif_in.BUS_PRIO.wr_ack          = hwif_out.BUS_PRIO.req && hwif_out.BUS_PRIO.req_is_wr;
  assign hwif_in.BUS_PRIO.rd_data.masters = bus_prio_q;
  assign bus_prio_o                       = bus_prio_q;

  // The register file keeps copies of the write-only bytes that nobody reads, and never stalls.
  assign unused = ^{hwif_out.SIM_EXIT.code.value, hwif_out.CONSOLE.ch.value};

  // The register fields update a cycle after the write strobe; the harness wants the written
  // byte in the strobe cycle itself, which is the request's data.
  assign console_char_o = reg_wr_data_i[7:0];
  assign exit_code_o    = reg_wr_data_i[7:0];

  assign mtime_next  = {mtime_hi, mtime_lo} + 64'd1;
  assign timer_irq_o = {mtime_hi, mtime_lo} >= {mtimecmp_hi, mtimecmp_lo};
  // Line 0 is the bus error; peripheral sources use the lines above it.
  assign irq_o       = {irq_src_i, bus_err_pending} | hwif_out.IRQ_SOFT.lines.value;

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
      if (hwif_out.CYCLE_LO.count.swacc) begin
        cycle_hi_snap_q <= cycle_q[63:32];
      end
    end
  end

endmodule

`default_nettype wire
