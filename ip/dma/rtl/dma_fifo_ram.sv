// SPDX-License-Identifier: Apache-2.0
// DMA FIFO storage: one write port, one registered read port, shared by all channel FIFOs.
`default_nettype none

// Each channel owns a FifoDepth-word segment (address = {channel, pointer}); the read engine is
// the only writer and the write engine the only reader, so one simple dual-port RAM serves every
// channel (a block RAM on FPGAs). Read data appears one cycle after the address; a read of the
// word written in the same cycle returns the new word (write-through), so a word can leave the
// FIFO in the cycle after it arrived.
module dma_fifo_ram #(
  parameter int unsigned Words = 128,
  localparam int unsigned AW = $clog2(Words)
) (
  input  wire logic          clk_i,
  input  wire logic          we_i,
  input  wire logic [AW-1:0] waddr_i,
  input  wire logic [31:0]   wdata_i,
  input  wire logic [AW-1:0] raddr_i,
  output logic [31:0]        rdata_o
);

  logic [31:0] mem_q [Words];
  logic [31:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    rdata_q <= (we_i && waddr_i == raddr_i) ? wdata_i : mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule

`default_nettype wire
