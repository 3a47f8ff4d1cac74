// SPDX-License-Identifier: Apache-2.0
// AES cipher key and decryption key registers, shared by the cipher cores (aes_cipher_core,
// aes_cipher_col).

`default_nettype none

// The cipher key is window 0 of the key schedule, the decryption key a later window that the core
// derives with its own key steps after each key load (which window is the core's business: it
// writes dkey_i with dkey_load_i). key_ready_o: a key is loaded and, with DecEnable, its decryption
// key derived. A key load clears the derived key's valid bit, so no block can use a stale one.
//
// SyncWipe: the two 256-bit registers are wiped synchronously, by clear_i or while rst_ni is low,
// instead of by an asynchronous reset plus clear_i: an iCE40 flip-flop has an asynchronous or a
// synchronous reset, not both, so the pair would cost a LUT4 per bit (aes_cipher_col, which is
// sized for iCE40). The valid bits and the key length keep the asynchronous reset either way, so
// no key is usable from the moment rst_ni falls.
//
// The area figures synthesise with the hierarchy kept, where a port hides from both sides what
// the other knows: the outputs are masked to the words an AES-128-only core keeps (so those
// flip-flops have no load and go); the cores mask them again, tie dkey_i to zero without
// DecEnable and take Nr from klen_o themselves, a function of two bits rather than a 4-bit port
// (docs/aes_engine.md, "Key handling, clear and errors").
module aes_key_regs #(
  parameter bit          DecEnable = 1'b1,  // 0: no decryption key register
  parameter int unsigned KeyLenMax = 256,   // 128: AES-128 only
  parameter bit          SyncWipe  = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,      // zeroise both keys and their valid bits

  input  logic [255:0] key_i,        // the key port, left-aligned as the register maps write it
  input  logic [1:0]   key_len_i,
  input  logic         key_load_i,   // store key_i (aligned to key_len_i) and key_len_i
  input  logic         dkey_load_i,  // store dkey_i as the derived key (ignored with key_load_i)
  input  logic [255:0] dkey_i,

  output logic [255:0] key_o,        // the words beyond KeyLenMax zero
  output logic [1:0]   klen_o,
  output logic [1:0]   klen_d_o,     // the key length of the next cycle
  output logic         kvalid_o,     // a cipher key is loaded
  output logic [255:0] dkey_o,
  output logic         key_ready_o
);
  localparam logic [255:0] KEY_KEEP = (KeyLenMax == 128) ? {{128{1'b1}}, 128'h0} : {256{1'b1}};
  logic [255:0] key_q, key_d, dkey_q, dkey_d;
  logic [1:0]   klen_q, klen_d, klen_in;
  logic         kvalid_q, kvalid_d, dkvalid_q, dkvalid_d;

  assign klen_in = (KeyLenMax == 128) ? aes_pkg::AES_KEY_128 : key_len_i;

  always_comb begin
    key_d     = key_q;
    klen_d    = klen_q;
    kvalid_d  = kvalid_q;
    dkey_d    = dkey_q;
    dkvalid_d = dkvalid_q;
    if (key_load_i) begin
      key_d     = aes_pkg::key_align(key_i, klen_in);
      klen_d    = klen_in;
      kvalid_d  = 1'b1;
      dkvalid_d = 1'b0;
    end else if (dkey_load_i) begin
      dkey_d    = dkey_i;
      dkvalid_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      klen_q   <= aes_pkg::AES_KEY_128;
      kvalid_q <= 1'b0;
    end else if (clear_i) begin
      klen_q   <= aes_pkg::AES_KEY_128;
      kvalid_q <= 1'b0;
    end else begin
      klen_q   <= klen_d;
      kvalid_q <= kvalid_d;
    end
  end

  // The wide registers: [0] the cipher key, [1] the decryption key (DecEnable only).
  for (genvar k = 0; k < (DecEnable ? 2 : 1); k++) begin : gen_wide
    logic [255:0] wide_d, wide_q;
    assign wide_d = (k == 0) ? key_d : dkey_d;
    if (SyncWipe) begin : gen_sync
      logic wipe;
      assign wipe = ~rst_ni | clear_i;
      always_ff @(posedge clk_i) begin
        if (wipe) begin
          wide_q <= '0;
        end else begin
          wide_q <= wide_d;
        end
      end
    end else begin : gen_async
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          wide_q <= '0;
        end else if (clear_i) begin
          wide_q <= '0;
        end else begin
          wide_q <= wide_d;
        end
      end
    end
  end

  assign key_q = gen_wide[0].wide_q;

  if (DecEnable) begin : gen_dkey
    assign dkey_q = gen_wide[1].wide_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dkvalid_q <= 1'b0;
      end else if (clear_i) begin
        dkvalid_q <= 1'b0;
      end else begin
        dkvalid_q <= dkvalid_d;
      end
    end
    assign key_ready_o = kvalid_q & dkvalid_q;
  end else begin : gen_no_dkey
    logic unused_dkey;
    assign unused_dkey = ^{dkey_d, dkvalid_d, dkey_load_i, dkey_i};
    assign dkey_q      = '0;
    assign dkvalid_q   = 1'b0;
    assign key_ready_o = kvalid_q;
  end

  assign key_o    = key_q & KEY_KEEP;
  assign klen_o   = klen_q;
  assign klen_d_o = klen_d;
  assign kvalid_o = kvalid_q;
  assign dkey_o   = dkey_q & KEY_KEEP;

endmodule

`default_nettype wire
