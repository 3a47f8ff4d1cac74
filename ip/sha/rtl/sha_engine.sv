// SPDX-License-Identifier: Apache-2.0
// SHA engine: message padder + compression core, message bookkeeping, context and errors.
`default_nettype none

// A message begins with start_i (from the algorithm's initial value) or resume_i (from state_i
// with count_i bytes already hashed, a whole number of blocks); len_i is its total byte length.
// Its bytes then arrive on in_* (see sha_pad); done_o rises when the digest is in state_o.
// saveable_o says the message is paused at a block boundary with everything hashed: state_o
// and count_o are then a context that resume_i continues from.
//
// Errors (err_code_o, sha_pkg::SHA_ERR_*): a word when no data is expected, a length the
// algorithm cannot encode, a bad resume count, an algorithm not built, or a fault reported by
// the surrounding peripheral (fault_i). An error zeroises the message at once, is sticky until
// clear_i, and meanwhile input words are taken and dropped so no producer ever waits.
module sha_engine #(
  parameter bit          Sha512Enable = 1'b1,
  parameter int unsigned Sha256Rounds = 1  // SHA-224/256 rounds per cycle (sha_core)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [2:0]       alg_i,
  input  wire logic [63:0]      len_i,
  input  wire logic [63:0]      count_i,
  input  wire logic [7:0][63:0] state_i,
  input  wire logic             start_i,
  input  wire logic             resume_i,
  input  wire logic             clear_i,
  input  wire logic             fault_i,
  input  wire logic [2:0]       fault_code_i,
  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [31:0]      in_data_i,
  output logic                  busy_o,      // a message is in progress
  output logic                  done_o,      // the digest is ready
  output logic                  saveable_o,
  output logic                  expect_o,    // the message needs more data words
  output logic                  err_o,
  output logic [2:0]            err_code_o,
  output logic [7:0][63:0]      state_o,
  output logic [63:0]           count_o,
  output logic                  round_o,
  output logic                  blk_done_o,
  // No register of the engine, padder or core changes at the next edge (simulation clock gating;
  // conservative: a message in progress is never idle).
  output logic                  idle_o
);

  logic [2:0]  alg_q, alg;
  logic        busy_q, done_q, err_q;
  logic [2:0]  code_q;
  logic        begin_msg, go, supported, len_bad, count_bad, err_set, zero;
  logic [2:0]  err_new;
  logic        pad_ready, pad_expect, pad_boundary, pad_idle, blk_valid, blk_ready, core_idle;
  logic        wide;
  logic [15:0][63:0] blk;
  logic [63:0] block_mask;

  assign begin_msg  = (start_i || resume_i) && !err_q;
  assign alg        = begin_msg ? alg_i : alg_q;
  assign wide       = Sha512Enable && sha_pkg::is_sha512_family(alg);
  assign supported  = alg_i <= sha_pkg::SHA_ALG_SHA512_256 && (Sha512Enable || !sha_pkg::is_sha512_family(alg_i));
  // The bit length must fit 64 bits for SHA-1/224/256; a byte length always fits 128.
  assign len_bad    = !sha_pkg::is_sha512_family(alg_i) && len_i[63:61] != 3'd0;
  assign block_mask = sha_pkg::is_sha512_family(alg_i) ? 64'h7f : 64'h3f;
  assign count_bad  = resume_i && ((count_i & block_mask) != 64'd0 || count_i > len_i);

  // A fault carries one of the peripheral's codes; anything else reads as ABORT.
  logic [2:0] fault_code;
  always_comb begin
    unique case (fault_code_i)
      sha_pkg::SHA_ERR_EARLY_READ, sha_pkg::SHA_ERR_ALG_CHANGE: fault_code = fault_code_i;
      default: fault_code = sha_pkg::SHA_ERR_ABORT;
    endcase
  end

  always_comb begin
    err_new = sha_pkg::SHA_ERR_NONE;
    if (!err_q) begin
      if (fault_i) err_new = fault_code;
      else if (begin_msg && !supported) err_new = sha_pkg::SHA_ERR_ALG;
      else if (begin_msg && (len_bad || count_bad)) err_new = sha_pkg::SHA_ERR_LEN;
      else if (in_valid_i && !pad_expect && !begin_msg) err_new = sha_pkg::SHA_ERR_AFTER_FINAL;
    end
  end
  assign err_set = err_new != sha_pkg::SHA_ERR_NONE;
  assign go      = begin_msg && !err_set;
  assign zero    = clear_i || err_set;

  sha_pad #(.Sha512Enable(Sha512Enable)) u_pad (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .wide_i      (wide),
    .start_i     (go),
    .len_i       (len_i),
    .count_i     (resume_i ? count_i : 64'd0),
    .clear_i     (zero),
    .in_valid_i  (in_valid_i && !err_q),
    .in_ready_o  (pad_ready),
    .in_data_i   (in_data_i),
    .blk_valid_o (blk_valid),
    .blk_ready_i (blk_ready),
    .blk_o       (blk),
    .expect_o    (pad_expect),
    .boundary_o  (pad_boundary),
    .idle_o      (pad_idle),
    .count_o     (count_o)
  );

  sha_core #(.Sha512Enable(Sha512Enable), .Sha256Rounds(Sha256Rounds)) u_core (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .alg_i       (alg),
    .init_i      (go && start_i),
    .load_i      (go && !start_i),
    .state_i     (state_i),
    .clear_i     (zero),
    .blk_valid_i (blk_valid),
    .blk_ready_o (blk_ready),
    .blk_i       (blk),
    .idle_o      (core_idle),
    .round_o     (round_o),
    .blk_done_o  (blk_done_o),
    .state_o     (state_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      alg_q  <= sha_pkg::SHA_ALG_SHA256;
      busy_q <= 1'b0;
      done_q <= 1'b0;
      err_q  <= 1'b0;
      code_q <= sha_pkg::SHA_ERR_NONE;
    end else if (clear_i) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      err_q  <= 1'b0;
      code_q <= sha_pkg::SHA_ERR_NONE;
    end else if (err_set) begin
      busy_q <= 1'b0;
      done_q <= 1'b0;
      err_q  <= 1'b1;
      code_q <= err_new;
    end else if (go) begin
      alg_q  <= alg_i;
      busy_q <= 1'b1;
      done_q <= 1'b0;
    end else if (busy_q && pad_idle && core_idle) begin
      busy_q <= 1'b0;
      done_q <= 1'b1;
    end
  end

  // In error, words are drained and dropped.
  assign in_ready_o = err_q || pad_ready;
  assign busy_o     = busy_q;
  assign done_o     = done_q;
  assign saveable_o = busy_q && pad_boundary && core_idle;
  assign expect_o   = pad_expect && !err_q;
  assign err_o      = err_q;
  assign err_code_o = code_q;

  // At rest: no message (busy_q low, so no go/done transition), padder and core in their idle
  // states with no block offered, and no input that acts (start, resume, clear, fault, a word:
  // without them err_set, go and zero are low and neither the padder nor the core moves).
  assign idle_o     = !busy_q && pad_idle && !blk_valid && core_idle &&
                      !start_i && !resume_i && !clear_i && !fault_i && !in_valid_i;

endmodule

`default_nettype wire
