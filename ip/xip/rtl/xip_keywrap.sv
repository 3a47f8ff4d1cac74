// SPDX-License-Identifier: Apache-2.0
// RFC 3394 AES key unwrap of one 128-bit key under the OTP key-encryption key.
`default_nettype none

// Input: the 24-byte wrapped blob C0 || C1 || C2 (C0 = blob bytes 0..7 in bits [191:128], byte 0
// most significant). RFC 3394 section 2.2.2, index form, with n = 2:
//
//   A = C0, R1 = C1, R2 = C2
//   for j = 5 down to 0, for i = 2 down to 1:
//     B = AES-1(KEK, (A ^ t) || Ri), t = 2j + i;  A = MSB64(B);  Ri = LSB64(B)
//   key = R1 || R2 if A == A6A6A6A6A6A6A6A6, else an integrity failure.
//
// Twelve decryptions on a decrypt-capable AES-128 core (its own instance: the keystream core is
// encrypt-only and never waits for an unwrap). Time per unwrap with RoundsPerCycle = 1: one key
// load, ten cycles of decryption-key derivation, then 12 x 12 cycles: about 160 cycles. done_o
// pulses for one cycle with ok_o and, only if ok, the key on key_o; then every register that saw
// key material (A, R1, R2 and the AES core) is zeroised.
module xip_keywrap (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,
  /* verilator tracing_off */
  input  wire logic [127:0] kek_i,    // byte 0 in bits [127:120]
  /* verilator tracing_on */
  input  wire logic         start_i,  // ignored while busy_o
  input  wire logic [191:0] blob_i,
  output logic              busy_o,
  output logic              done_o,
  output logic              ok_o,
  /* verilator tracing_off */
  output logic [127:0]      key_o,
  /* verilator tracing_on */
  output logic              idle_o    // no register would change at this edge
);

  localparam logic [63:0] IV = 64'hA6A6_A6A6_A6A6_A6A6;

  typedef enum logic [2:0] {
    ST_IDLE  = 3'd0,
    ST_KEY   = 3'd1,  // KEK loaded, decryption key being derived
    ST_ISSUE = 3'd2,
    ST_WAIT  = 3'd3,
    ST_DONE  = 3'd4,
    ST_CLEAR = 3'd5
  } state_e;

  state_e       state_q, state_d;
  /* verilator tracing_off */
  logic [63:0]  a_q, a_d, r1_q, r1_d, r2_q, r2_d;
  /* verilator tracing_on */
  logic [2:0]   j_q, j_d;
  logic         i2_q, i2_d;   // i = 2 (else i = 1)
  logic [7:0]   t;

  logic         aes_clear, aes_key_we, aes_key_ready, aes_in_valid, aes_in_ready;
  logic         aes_out_valid, aes_busy;
  /* verilator tracing_off */
  logic [127:0] aes_in, aes_out;
  /* verilator tracing_on */

  assign t      = {4'b0, j_q, 1'b0} + (i2_q ? 8'd2 : 8'd1);
  assign aes_in = {a_q ^ {56'b0, t}, i2_q ? r2_q : r1_q};

  always_comb begin
    state_d      = state_q;
    a_d          = a_q;
    r1_d         = r1_q;
    r2_d         = r2_q;
    j_d          = j_q;
    i2_d         = i2_q;
    aes_clear    = 1'b0;
    aes_key_we   = 1'b0;
    aes_in_valid = 1'b0;
    done_o       = 1'b0;
    unique case (state_q)
      ST_IDLE: begin
        if (start_i) begin
          a_d        = blob_i[191:128];
          r1_d       = blob_i[127:64];
          r2_d       = blob_i[63:0];
          j_d        = 3'd5;
          i2_d       = 1'b1;
          aes_key_we = 1'b1;
          state_d    = ST_KEY;
        end
      end
      ST_KEY: begin
        if (aes_key_ready) begin
          state_d = ST_ISSUE;
        end
      end
      ST_ISSUE: begin
        aes_in_valid = 1'b1;
        if (aes_in_ready) begin
          state_d = ST_WAIT;
        end
      end
      ST_WAIT: begin
        if (aes_out_valid) begin
          a_d = aes_out[127:64];
          if (i2_q) begin
            r2_d = aes_out[63:0];
          end else begin
            r1_d = aes_out[63:0];
          end
          i2_d    = ~i2_q;
          state_d = ST_ISSUE;
          if (!i2_q) begin
            j_d = j_q - 3'd1;
            if (j_q == 3'd0) begin
              state_d = ST_DONE;
            end
          end
        end
      end
      ST_DONE: begin
        done_o  = 1'b1;
        state_d = ST_CLEAR;
      end
      ST_CLEAR: begin
        aes_clear = 1'b1;
        a_d       = '0;
        r1_d      = '0;
        r2_d      = '0;
        state_d   = ST_IDLE;
      end
      default: begin
        state_d = ST_CLEAR;
      end
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= ST_IDLE;
      a_q     <= '0;
      r1_q    <= '0;
      r2_q    <= '0;
      j_q     <= '0;
      i2_q    <= 1'b0;
    end else begin
      state_q <= state_d;
      a_q     <= a_d;
      r1_q    <= r1_d;
      r2_q    <= r2_d;
      j_q     <= j_d;
      i2_q    <= i2_d;
    end
  end

  /* verilator tracing_off */
  aes_cipher #(
    .RoundsPerCycle (1),
    .Pipelined      (1'b0),
    .DecEnable      (1'b1),
    .KeyLenMax      (128)
  ) u_aes (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .clear_i     (aes_clear),
    .key_i       ({kek_i, 128'h0}),
    .key_len_i   (aes_pkg::AES_KEY_128),
    .key_we_i    (aes_key_we),
    .key_ready_o (aes_key_ready),
    .in_valid_i  (aes_in_valid),
    .in_ready_o  (aes_in_ready),
    .in_dec_i    (aes_pkg::AES_DIR_DEC),
    .in_block_i  (aes_in),
    .out_valid_o (aes_out_valid),
    .out_ready_i (1'b1),
    .out_data_o  (aes_out),
    .busy_o      (aes_busy)
  );
  /* verilator tracing_on */

  assign busy_o = state_q != ST_IDLE;
  assign ok_o   = (state_q == ST_DONE) && (a_q == IV);
  assign key_o  = ok_o ? {r1_q, r2_q} : 128'h0;

  // Simulation clock gating: ST_IDLE without start_i holds A, R1, R2, j, i and gives the AES core
  // nothing (no clear, key or block), which then stays as it is if it is empty.
  assign idle_o = (state_q == ST_IDLE) && !start_i && !aes_busy;

endmodule

`default_nettype wire
