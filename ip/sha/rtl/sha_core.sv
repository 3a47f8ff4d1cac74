// SPDX-License-Identifier: Apache-2.0
// SHA compression core: one round per cycle (SHA-1: two), message schedule on the fly in a
// 16-word window.
`default_nettype none

// A block is taken in the cycle blk_valid_i && blk_ready_o: its 16 words go into the schedule
// window and the chaining value into the working variables. Then one round per cycle (64 for
// SHA-224/256, 80 for the SHA-512 family); the window shifts each round and its new last word is
// W[t+16]. SHA-1's round is a single five-operand sum, so two of its 80 rounds fit the depth of
// one SHA-256 round: it runs two per cycle, the window shifting by two. Sha256Rounds = 2 does the
// same for SHA-224/256 (two chained rounds, twice the depth: it pays only if the clock loses less
// than half). The cycle after the last round adds the working variables into the chaining value
// and, if the next block is already waiting, takes it in the same cycle: back to back, a block
// costs 65 cycles for SHA-224/256 (33 with Sha256Rounds = 2), 41 for SHA-1 and 81 for the
// SHA-512 family.
//
// Words are 64-bit slots; the 32-bit algorithms use the low halves. With Sha512Enable = 0 the
// registers are 32 bits wide and the 64-bit round is not built.
module sha_core #(
  parameter bit          Sha512Enable = 1'b1,
  parameter int unsigned Sha256Rounds = 1  // SHA-224/256 rounds per cycle: 1 or 2
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [2:0]       alg_i,       // held for the whole message
  input  wire logic             init_i,      // chaining value := the algorithm's initial value
  input  wire logic             load_i,      // chaining value := state_i (context restore)
  input  wire logic [7:0][63:0] state_i,
  input  wire logic             clear_i,     // zeroise and stop
  input  wire logic             blk_valid_i,
  output logic                  blk_ready_o,
  input  wire logic [15:0][63:0] blk_i,      // W[0..15], big-endian words
  output logic                  idle_o,      // no block in flight: state_o is the chaining value
  output logic                  round_o,     // a round runs this cycle
  output logic                  blk_done_o,  // a block's chaining value was updated
  output logic [7:0][63:0]      state_o
);

  localparam int unsigned DW = Sha512Enable ? 64 : 32;

  typedef enum logic [1:0] { S_IDLE, S_ROUND, S_FINAL } state_e;
  state_e state_q, state_d;

  logic [DW-1:0] h_q [8], h_d [8];   // chaining value
  logic [DW-1:0] v_q [8], v_d [8];   // working variables a..h
  logic [DW-1:0] w_q [16], w_d [16]; // schedule window: w_q[0] is W[t]
  logic [6:0]    t_q, t_d;
  logic [DW-1:0] h_sum [8];
  logic [DW-1:0] v_rnd [8];
  logic [DW-1:0] w_next;
  logic          take;
  logic          wide;

  logic sha1, two;  // two: two rounds per cycle
  assign wide = Sha512Enable && sha_pkg::is_sha512_family(alg_i);
  assign sha1 = alg_i == sha_pkg::SHA_ALG_SHA1;
  assign two  = sha1 || (Sha256Rounds == 2 && !wide);

  // FIPS 180-4 section 6.2.2: one SHA-224/256 round on a..h (word i of v is bits 32i+31:32i;
  // flat vectors because Yosys's own frontend reads no packed arrays of arrays in functions).
  function automatic logic [255:0] sha256_round(logic [255:0] v, logic [31:0] k, logic [31:0] w);
    logic [31:0] a, b, c, d, e, f, g, h, t1, t2;
    a = v[31:0];    b = v[63:32];   c = v[95:64];   d = v[127:96];
    e = v[159:128]; f = v[191:160]; g = v[223:192]; h = v[255:224];
    t1 = h + (sha_pkg::rotr32(e, 6) ^ sha_pkg::rotr32(e, 11) ^ sha_pkg::rotr32(e, 25))
       + ((e & f) ^ (~e & g)) + k + w;
    t2 = (sha_pkg::rotr32(a, 2) ^ sha_pkg::rotr32(a, 13) ^ sha_pkg::rotr32(a, 22))
       + ((a & b) ^ (a & c) ^ (b & c));
    sha256_round = {g, f, e, d + t1, c, b, a, t1 + t2};
  endfunction

  // W[j] from W[j-16], W[j-15], W[j-7] and W[j-2].
  function automatic logic [31:0] sha256_word(logic [31:0] w16, logic [31:0] w15, logic [31:0] w7,
                                              logic [31:0] w2);
    sha256_word = (sha_pkg::rotr32(w2, 17) ^ sha_pkg::rotr32(w2, 19) ^ (w2 >> 10)) + w7
                + (sha_pkg::rotr32(w15, 7) ^ sha_pkg::rotr32(w15, 18) ^ (w15 >> 3)) + w16;
  endfunction

  // ---- one round of the selected algorithm ----
  logic [31:0] r32 [8];
  logic [31:0] w32_next, w32_next2;  // W[t+16], and W[t+17] for a second round in the cycle
  logic [63:0] r64 [8];
  logic [63:0] w64_next;

  always_comb begin
    logic [31:0] a, b, c, d, e, w0, s0, s1, t1, t2, fn, k, rb;
    logic [255:0] v, v1;
    a = v_q[0][31:0]; b = v_q[1][31:0]; c = v_q[2][31:0]; d = v_q[3][31:0];
    e = v_q[4][31:0];
    for (int i = 0; i < 8; i++) v[32*i +: 32] = v_q[i][31:0];
    v1 = '0;
    w0 = w_q[0][31:0];
    r32 = '{default: '0};
    {s0, s1, t1, t2, rb, fn, k} = '0;
    w32_next  = '0;
    w32_next2 = '0;
    if (sha1) begin
      // FIPS 180-4 section 6.1.2, two rounds per cycle (t even: both in the same group of 20,
      // so one f and one K); a..e in v[0..4]. Two chained five-operand sums are about as deep
      // as one SHA-256 round.
      k = sha_pkg::k_sha1(t_q);
      if (t_q < 7'd20) fn = (b & c) ^ (~b & d);
      else if (t_q >= 7'd40 && t_q < 7'd60) fn = (b & c) ^ (b & d) ^ (c & d);
      else fn = b ^ c ^ d;
      t1 = {a[26:0], a[31:27]} + fn + e + k + w0;  // round t: new a
      rb = {b[1:0], b[31:2]};                      // round t: new c
      if (t_q < 7'd20) t2 = (a & rb) ^ (~a & c);
      else if (t_q >= 7'd40 && t_q < 7'd60) t2 = (a & rb) ^ (a & c) ^ (rb & c);
      else t2 = a ^ rb ^ c;
      r32[0] = {t1[26:0], t1[31:27]} + t2 + d + k + w_q[1][31:0];
      r32[1] = t1;
      r32[2] = {a[1:0], a[31:2]};
      r32[3] = rb;
      r32[4] = c;
      s0 = w_q[13][31:0] ^ w_q[8][31:0] ^ w_q[2][31:0] ^ w0;
      s1 = w_q[14][31:0] ^ w_q[9][31:0] ^ w_q[3][31:0] ^ w_q[1][31:0];
      w32_next  = {s0[30:0], s0[31]};
      w32_next2 = {s1[30:0], s1[31]};
    end else begin
      k  = 32'(sha_pkg::k64(t_q) >> 32);
      v1 = sha256_round(v, k, w0);
      w32_next = sha256_word(w0, w_q[1][31:0], w_q[9][31:0], w_q[14][31:0]);
      if (Sha256Rounds == 2) begin
        v1 = sha256_round(v1, 32'(sha_pkg::k64(t_q + 7'd1) >> 32), w_q[1][31:0]);
        w32_next2 = sha256_word(w_q[1][31:0], w_q[2][31:0], w_q[10][31:0], w_q[15][31:0]);
      end
      for (int i = 0; i < 8; i++) r32[i] = v1[32*i +: 32];
    end
  end

  if (Sha512Enable) begin : gen_sha512
    // FIPS 180-4 section 6.4.2.
    always_comb begin
      logic [63:0] a, b, c, d, e, f, g, h, w0, s0, s1, t1, t2;
      a = 64'(v_q[0]); b = 64'(v_q[1]); c = 64'(v_q[2]); d = 64'(v_q[3]);
      e = 64'(v_q[4]); f = 64'(v_q[5]); g = 64'(v_q[6]); h = 64'(v_q[7]);
      w0 = 64'(w_q[0]);
      s1 = sha_pkg::rotr64(e, 14) ^ sha_pkg::rotr64(e, 18) ^ sha_pkg::rotr64(e, 41);
      t1 = h + s1 + ((e & f) ^ (~e & g)) + sha_pkg::k64(t_q) + w0;
      s0 = sha_pkg::rotr64(a, 28) ^ sha_pkg::rotr64(a, 34) ^ sha_pkg::rotr64(a, 39);
      t2 = s0 + ((a & b) ^ (a & c) ^ (b & c));
      r64 = '{t1 + t2, a, b, c, d + t1, e, f, g};
      s0 = sha_pkg::rotr64(64'(w_q[1]), 1) ^ sha_pkg::rotr64(64'(w_q[1]), 8) ^ (64'(w_q[1]) >> 7);
      s1 = sha_pkg::rotr64(64'(w_q[14]), 19) ^ sha_pkg::rotr64(64'(w_q[14]), 61) ^ (64'(w_q[14]) >> 6);
      w64_next = s1 + 64'(w_q[9]) + s0 + w0;
    end
  end else begin : gen_no_sha512
    assign r64 = '{default: '0};
    assign w64_next = '0;
  end

  always_comb begin
    for (int i = 0; i < 8; i++) begin
      v_rnd[i] = wide ? DW'(r64[i]) : DW'(r32[i]);
      h_sum[i] = wide ? DW'(64'(h_q[i]) + 64'(v_q[i])) : DW'(h_q[i][31:0] + v_q[i][31:0]);
    end
    w_next = wide ? DW'(w64_next) : DW'(w32_next);
  end

  // ---- control ----
  assign blk_ready_o = (state_q == S_IDLE || state_q == S_FINAL) && !init_i && !load_i && !clear_i;
  assign take        = blk_valid_i && blk_ready_o;

  always_comb begin
    state_d = state_q;
    t_d     = t_q;
    h_d     = h_q;
    v_d     = v_q;
    w_d     = w_q;
    unique case (state_q)
      S_ROUND: begin
        v_d = v_rnd;
        if (two) begin
          for (int i = 0; i < 14; i++) w_d[i] = w_q[i + 2];
          w_d[14] = w_next;
          w_d[15] = DW'(w32_next2);
          t_d = t_q + 7'd2;
        end else begin
          for (int i = 0; i < 15; i++) w_d[i] = w_q[i + 1];
          w_d[15] = w_next;
          t_d = t_q + 7'd1;
        end
        if (t_q + (two ? 7'd2 : 7'd1) == sha_pkg::num_rounds(alg_i)) state_d = S_FINAL;
      end
      S_FINAL: begin
        h_d     = h_sum;
        state_d = S_IDLE;
      end
      default: ;
    endcase
    if (take) begin
      // The working variables start from the chaining value this block sees: in S_FINAL the
      // sum being written, otherwise the register.
      v_d     = (state_q == S_FINAL) ? h_sum : h_q;
      for (int i = 0; i < 16; i++) w_d[i] = DW'(blk_i[i]);
      t_d     = '0;
      state_d = S_ROUND;
    end
    if (init_i) begin
      for (int i = 0; i < 8; i++) h_d[i] = DW'(sha_pkg::initial_value(alg_i, i));
    end else if (load_i) begin
      for (int i = 0; i < 8; i++) h_d[i] = DW'(state_i[i]);
    end
    if (clear_i) begin
      state_d = S_IDLE;
      t_d     = '0;
      h_d     = '{default: '0};
      v_d     = '{default: '0};
      w_d     = '{default: '0};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      t_q     <= '0;
      h_q     <= '{default: '0};
      v_q     <= '{default: '0};
      w_q     <= '{default: '0};
    end else begin
      state_q <= state_d;
      t_q     <= t_d;
      h_q     <= h_d;
      v_q     <= v_d;
      w_q     <= w_d;
    end
  end

  assign idle_o     = state_q == S_IDLE;
  assign round_o    = state_q == S_ROUND;
  assign blk_done_o = state_q == S_FINAL;
  for (genvar i = 0; i < 8; i++) begin : gen_state_o
    assign state_o[i] = 64'(h_q[i]);
  end

  // The 32-bit build truncates the (constant zero) 64-bit schedule word.
  logic unused;
  assign unused = ^w64_next;

endmodule

`default_nettype wire
