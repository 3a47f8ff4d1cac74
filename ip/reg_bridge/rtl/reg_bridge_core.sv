// SPDX-License-Identifier: Apache-2.0
// One register access at a time with a bounded wait, for the APB4 and AXI4-Lite bridges.
`default_nettype none

// start_i takes an access (while busy_o is low); the access goes to the register port as soon
// as the port does not stall it, and done_o pulses with its answer in the cycle the register
// file answers. start_bad_i marks an access the bridge refuses (misaligned, strobes that do not
// fit the address): it ends with done_err_o in the next cycle and never reaches the register
// port. An access that has no answer MaxWait cycles after it started ends anyway: done_o with
// done_err_o, and a timeout_o pulse. That happens when the core holds an access that can never
// complete (an AES DATA_OUT read with no result coming, a DATA_IN write to a full FIFO of a
// stopped engine). If the access had reached the register file, reg_abort_o then stays up until
// the core completes it without effect (the write dropped, the read cancelled); that late
// answer is dropped, so the next access is served normally. MaxWait = 0 waits without bound.
module reg_bridge_core #(
  parameter int unsigned AddrWidth = 12,
  parameter int unsigned MaxWait   = 512
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  // Access in.
  input  wire logic                 start_i,
  input  wire logic                 start_wr_i,
  input  wire logic                 start_bad_i,
  input  wire logic [AddrWidth-1:0] start_addr_i,
  input  wire logic [31:0]          start_wdata_i,
  input  wire logic [3:0]           start_wstrb_i,
  output logic                      busy_o,
  // Answer out (one cycle).
  output logic                      done_o,
  output logic                      done_err_o,
  output logic      [31:0]          done_rdata_o,
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

  localparam int unsigned CntW = $clog2(MaxWait + 2);

  typedef enum logic [1:0] {StIdle, StIssue, StWait} state_e;

  state_e                state_q, state_d;
  logic                  wr_q, bad_q;
  logic [AddrWidth-1:0]  addr_q;
  logic [31:0]           wdata_q;
  logic [3:0]            wstrb_q;
  logic [CntW-1:0]       count_q, count_d;
  logic                  orphan_q, orphan_d;  // an access that timed out is still in the core
  logic                  ack, err, stall, limit, waiting;

  assign ack   = reg_rd_ack_i | reg_wr_ack_i;
  assign err   = reg_rd_err_i | reg_wr_err_i;
  assign stall = wr_q ? reg_req_stall_wr_i : reg_req_stall_rd_i;
  assign limit = (MaxWait != 0) && (count_q == CntW'(MaxWait - 1));
  // Outside the FSM block: the register file answers in the request cycle, and a request that
  // read the answer's block would look like a combinational loop to the simulator.
  assign reg_req_o = (state_q == StIssue) & ~orphan_q & ~bad_q & ~stall;
  assign waiting   = reg_req_o | (state_q == StWait);

  always_comb begin
    state_d    = state_q;
    count_d    = count_q;
    orphan_d   = orphan_q & ~ack;
    done_o     = 1'b0;
    done_err_o = 1'b0;
    timeout_o  = 1'b0;
    unique case (state_q)
      StIdle: begin
        count_d = '0;
        if (start_i) begin
          state_d = StIssue;
        end
      end
      StIssue, StWait: begin
        count_d = count_q + CntW'(1);
        if (bad_q) begin
          done_o     = 1'b1;
          done_err_o = 1'b1;
          state_d    = StIdle;
        end else if (waiting && ack) begin
          done_o     = 1'b1;
          done_err_o = err;
          state_d    = StIdle;
        end else if (limit) begin
          done_o     = 1'b1;
          done_err_o = 1'b1;
          timeout_o  = 1'b1;
          orphan_d   = orphan_q | waiting;
          state_d    = StIdle;
        end else if (reg_req_o) begin
          state_d = StWait;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= StIdle;
      count_q  <= '0;
      orphan_q <= 1'b0;
      wr_q     <= 1'b0;
      bad_q    <= 1'b0;
      addr_q   <= '0;
      wdata_q  <= '0;
      wstrb_q  <= '0;
    end else begin
      state_q  <= state_d;
      count_q  <= count_d;
      orphan_q <= orphan_d;
      if (state_q == StIdle && start_i) begin
        wr_q    <= start_wr_i;
        bad_q   <= start_bad_i;
        addr_q  <= start_addr_i;
        wdata_q <= start_wdata_i;
        wstrb_q <= start_wstrb_i;
      end
    end
  end

  // Registered: the core's abandon logic never sees a path from the bus.
  assign reg_abort_o     = orphan_q;
  assign busy_o          = state_q != StIdle;
  assign done_rdata_o    = (done_o && !timeout_o && !bad_q) ? reg_rd_data_i : '0;
  assign reg_req_is_wr_o = wr_q;
  assign reg_addr_o      = addr_q;
  assign reg_wr_data_o   = wdata_q;
  for (genvar i = 0; i < 4; i++) begin : gen_biten
    assign reg_wr_biten_o[8*i +: 8] = {8{wstrb_q[i]}};
  end

endmodule

`default_nettype wire
