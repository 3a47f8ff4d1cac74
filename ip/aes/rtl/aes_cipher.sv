// SPDX-License-Identifier: Apache-2.0
// AES block cipher: the documented single-block interface of ip/aes for other IP (e.g. ip/xip).
`default_nettype none

// One block in, AES(block) or AES^-1(block) out, in order, on valid/ready streams; no chaining
// mode, IV or FIFO (that is aes_engine's job). Byte 0 of a block in bits [127:120]; the key is
// left-aligned (key byte 0 in bits [255:248]). Load a key with key_we_i (ignored while busy_o),
// wait for key_ready_o, then stream blocks; clear_i zeroises every register in one cycle.
// Timing is aes_cipher_core's (ip/aes/README.md): latency and cycles per block
// 1 + ceil(Nr / RoundsPerCycle) for the iterative datapath, 1 + 2 * Nr with SplitRound (a
// register inside the round: about two thirds of the logic depth, for a caller whose rate does not
// matter, such as a key unwrap). Callers depend on this interface,
// never on aes_cipher_core's ports, which may change with the datapath.
module aes_cipher #(
  parameter int unsigned RoundsPerCycle = 1,     // 1, 2, 3 or 5; 0: full unroll
  parameter bit          Pipelined      = 1'b0,  // 1: register every round (full unroll only)
  parameter bit          DecEnable      = 1'b1,  // 0: encryption only
  parameter int unsigned KeyLenMax      = 256,   // 128: AES-128 only; 256: AES-128/192/256
  parameter bit          SplitRound     = 1'b0,  // 1: two cycles per round (RoundsPerCycle = 1)
  parameter int unsigned SBoxImpl       = 0      // S-boxes: 0 tower field, 1 tables
) (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,
  input  wire logic         clear_i,
  input  wire logic [255:0] key_i,
  input  wire logic [1:0]   key_len_i,    // aes_pkg::AES_KEY_*, sampled with key_we_i
  input  wire logic         key_we_i,
  output logic              key_ready_o,
  input  wire logic         in_valid_i,
  output logic              in_ready_o,
  input  wire logic         in_dec_i,     // aes_pkg::AES_DIR_*
  input  wire logic [127:0] in_block_i,
  output logic              out_valid_o,
  input  wire logic         out_ready_i,
  output logic [127:0]      out_data_o,
  output logic              busy_o
);

  aes_cipher_core #(
    .RoundsPerCycle (RoundsPerCycle),
    .Pipelined      (Pipelined),
    .DecEnable      (DecEnable),
    .KeyLenMax      (KeyLenMax),
    .SplitRound     (SplitRound),
    .SBoxImpl       (SBoxImpl)
  ) u_core (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .clear_i     (clear_i),
    .key_i       (key_i),
    .key_len_i   (key_len_i),
    .key_we_i    (key_we_i),
    .key_ready_o (key_ready_o),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready_o),
    .in_dec_i    (in_dec_i),
    .in_block_i  (in_block_i),
    .in_mask_i   (128'h0),  // the engine's CBC/CTR helper; a plain cipher has none
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data_o),
    .busy_o      (busy_o)
  );

endmodule

`default_nettype wire
