// SPDX-License-Identifier: Apache-2.0
// DMA FIFO storage: one write port, one registered read port, shared by all channel FIFOs.
`default_nettype none

// Each channel owns a FifoDepth-word segment (address = {channel, pointer}); the read engine is
// the only writer and the write engine the only reader, so one simple dual-port RAM serves every
// channel (a block RAM on FPGAs). Read data appears one cycle after the address. A word is
// never read in the cycle it is written: the write engine offers only words whose write was
// acknowledged at least two cycles before (dma_channel's avail and its registered offer), and a
// slot is written again only after its word was popped. The read port still reads every cycle,
// and may read the slot being written while its word is not yet offered: that data is never
// used. So neither a write-through bypass nor the read-before-write emulation of two block-RAM
// ports (an address compare and a multiplexer after the RAM, on the read-address path) is
// needed: no_rw_check tells Yosys the collision result does not matter.
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

  (* no_rw_check *) logic [31:0] mem_q [Words];
  logic [31:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    rdata_q <= mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule

`default_nettype wire
