// SPDX-License-Identifier: Apache-2.0
// RFC 3394 AES key unwrap of a Blocks x 64-bit plaintext under the OTP key-encryption key.
`default_nettype none

// Input: the wrapped blob C0 || C1 || ... || Cn, n = Blocks (C0 = blob bytes 0..7 in the top
// bits, byte 0 most significant). RFC 3394 section 2.2.2, index form:
//
//   A = C0, Ri = Ci
//   for j = 5 down to 0, for i = n down to 1:
//     B = AES-1(KEK, (A ^ t) || Ri), t = n * j + i;  A = MSB64(B);  Ri = LSB64(B)
//   P = R1 || ... || Rn if A == A6A6A6A6A6A6A6A6, else an integrity failure.
//
// t runs from 6n down to 1, one step per decryption, so a single step counter gives it. R is one
// shift register: the block in use is always its last one, and each result enters at the top
// while the others move down one place, so after n steps (and after all 6n) every Ri is back
// where it started. No multiplexer picks Ri: the only logic per step is the XOR of t into A.
//
// 6n decryptions on a decrypt-capable AES-128 core (its own instance: the keystream core is
// encrypt-only and never waits for an unwrap). The core splits each round in two cycles: as one
// cycle, its encrypt-and-decrypt round was the controller's deepest path (15 ECP5 LUT levels with
// tower-field S-boxes, 12 split), and an unwrap runs only when a context's key is loaded. Time
// per unwrap: one key load, ten cycles of decryption-key derivation, then 6n x 22 cycles (n = 8,
// a context description: about 1,070 cycles). check_o and then done_o pulse for one cycle each,
// both with ok_o and, only if ok, the plaintext on data_o: the cycle of check_o lets the user
// register its checks of the plaintext, so that nothing deeper than a register's fan-out lies
// between this core's registers and the writes done_o makes. ok_o is a register too, set from
// the last decryption's output. Then every register that saw key material (A, R and the AES
// core) is zeroised.
module xip_keywrap #(
  parameter int unsigned Blocks   = 8,  // 64-bit plaintext blocks (RFC 3394 n, 2..10)
  parameter int unsigned SBoxImpl = 0   // its S-boxes (aes_cipher): 0 tower field, 1 tables
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_ni,
  /* verilator tracing_off */
  input  wire logic [127:0]              kek_i,    // byte 0 in bits [127:120]
  /* verilator tracing_on */
  input  wire logic                      start_i,  // ignored while busy_o
  input  wire logic [64*(Blocks+1)-1:0]  blob_i,
  output logic                           busy_o,
  output logic                           check_o,
  output logic                           done_o,
  output logic                           ok_o,
  /* verilator tracing_off */
  output logic      [64*Blocks-1:0]      data_o,   // P1 in the top bits
  /* verilator tracing_on */
  output logic                           idle_o    // no register would change at this edge
);

  localparam logic [63:0] IV    = 64'hA6A6_A6A6_A6A6_A6A6;
  localparam int unsigned RW    = 64 * Blocks;
  localparam int unsigned STEPS = 6 * Blocks;
  localparam int unsigned SW    = $clog2(STEPS + 1);

  typedef enum logic [2:0] {
    ST_IDLE  = 3'd0,
    ST_KEY   = 3'd1,  // KEK loaded, decryption key being derived
    ST_ISSUE = 3'd2,
    ST_WAIT  = 3'd3,
    ST_DONE  = 3'd4,
    ST_CLEAR = 3'd5,
    ST_CHECK = 3'd6
  } state_e;

  state_e       state_q, state_d;
  /* verilator tracing_off */
  logic [63:0]  a_q, a_d;
  logic [RW-1:0] r_q, r_d;    // R1 on top; the step's Ri is r_q[63:0]
  /* verilator tracing_on */
  logic [SW-1:0] s_q, s_d;    // steps left after this one: t = s_q + 1
  logic         ok_q, ok_d;   // A == IV after the last step
  logic [63:0]  t;

  logic         aes_clear, aes_key_we, aes_key_ready, aes_in_valid, aes_in_ready;
  logic         aes_out_valid, aes_busy;
  /* verilator tracing_off */
  logic [127:0] aes_in, aes_out;
  /* verilator tracing_on */

  assign t      = 64'(s_q) + 64'd1;
  assign aes_in = {a_q ^ t, r_q[63:0]};

  always_comb begin
    state_d      = state_q;
    a_d          = a_q;
    r_d          = r_q;
    s_d          = s_q;
    ok_d         = ok_q;
    aes_clear    = 1'b0;
    aes_key_we   = 1'b0;
    aes_in_valid = 1'b0;
    check_o      = 1'b0;
    done_o       = 1'b0;
    unique case (state_q)
      ST_IDLE: begin
        if (start_i) begin
          a_d        = blob_i[RW +: 64];
          r_d        = blob_i[RW-1:0];
          s_d        = SW'(STEPS - 1);
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
          a_d     = aes_out[127:64];
          r_d     = {aes_out[63:0], r_q[RW-1:64]};
          s_d     = s_q - 1'b1;
          ok_d    = aes_out[127:64] == IV;
          state_d = (s_q == '0) ? ST_CHECK : ST_ISSUE;
        end
      end
      ST_CHECK: begin
        check_o = 1'b1;
        state_d = ST_DONE;
      end
      ST_DONE: begin
        done_o  = 1'b1;
        state_d = ST_CLEAR;
      end
      ST_CLEAR: begin
        aes_clear = 1'b1;
        a_d       = '0;
        r_d       = '0;
        ok_d      = 1'b0;
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
      r_q     <= '0;
      s_q     <= '0;
      ok_q    <= 1'b0;
    end else begin
      state_q <= state_d;
      a_q     <= a_d;
      r_q     <= r_d;
      s_q     <= s_d;
      ok_q    <= ok_d;
    end
  end

  /* verilator tracing_off */
  aes_cipher #(
    .RoundsPerCycle (1),
    .Pipelined      (1'b0),
    .DecEnable      (1'b1),
    .KeyLenMax      (128),
    .SplitRound     (1'b1),
    .SBoxImpl       (SBoxImpl)
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
  assign ok_o   = (state_q == ST_CHECK || state_q == ST_DONE) && ok_q;
  assign data_o = ok_o ? r_q : '0;

  // Simulation clock gating: ST_IDLE without start_i holds A, R, the step count and gives the AES core
  // nothing (no clear, key or block), which then stays as it is if it is empty.
  assign idle_o = (state_q == ST_IDLE) && !start_i && !aes_busy;

endmodule

`default_nettype wire
