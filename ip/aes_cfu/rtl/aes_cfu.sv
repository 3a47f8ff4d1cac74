// SPDX-License-Identifier: Apache-2.0
// AES coprocessor on the VexRiscv CFU port: Zkne/Zknd-style round instructions plus coarse ops.
`default_nettype none

// function_id = {funct7, funct3} of a custom-0 (opcode 0x0B) R-type instruction.
//   funct3 0..3  aes32esi / aes32esmi / aes32dsi / aes32dsmi, bs = funct7[1:0], exactly as in the
//                RISC-V scalar crypto spec: rd = rs1 ^ rol32(f(byte bs of rs2), 8*bs).
//   funct3 4     KEY    pair p = funct7[1:0]: staged key words 2p, 2p+1 = rs1, rs2
//   funct3 5     BLOCK  pair p = funct7[0]: staged block words 2p, 2p+1 = rs1, rs2;
//                       funct7[1] = 1: start the block through the engine after this load
//   funct3 6     CTRL   funct7 0 CONFIG rs1 = {key_len[4:3], dir[2], mode[1:0]}; loads the staged key
//                       funct7 1 IV     the staged block becomes the IV / counter
//                       funct7 2 CLEAR  zeroise engine, staged key and block, result, error
//                       funct7 3 STATUS rd = {28'b0, err, busy, result_valid, key_ready}
//                       funct7 4 START  start the staged block
//   funct3 7     RESULT word w = funct7[1:0]; waits for the engine's result, reading word 3
//                       releases it. With no block in flight and no result it answers 0 and
//                       sets err instead of waiting forever.
// Any other function id answers 0 and sets err (sticky until CLEAR).
// Words move between registers and the engine in memory byte order: a register loaded with lw
// from a byte array holds bytes 0..3 in its bits 7:0 .. 31:24.
// idle_o (simulation clock gating): 1 only when no register here or in the engine would change
// at the next clock edge; it may then be skipped.
module aes_cfu #(
  parameter int unsigned RoundsPerCycle = 1,
  // 0: round instructions only (no AES engine); coarse ops then answer 0 and set err.
  parameter bit          CoarseOps      = 1'b1,
  // S-boxes (round ops and engine, aes_sbox_sel): 0 tower field, 1 tables
  parameter int unsigned SBoxImpl       = 0
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        cmd_valid_i,
  output logic             cmd_ready_o,
  input  wire logic [9:0]  cmd_function_id_i,
  input  wire logic [31:0] cmd_inputs_0_i,
  input  wire logic [31:0] cmd_inputs_1_i,
  output logic             rsp_valid_o,
  input  wire logic        rsp_ready_i,
  output logic [31:0]      rsp_outputs_0_o,
  output logic             idle_o
);

  localparam logic [2:0] F3_ESI = 3'd0, F3_ESMI = 3'd1, F3_DSI = 3'd2, F3_DSMI = 3'd3;
  localparam logic [2:0] F3_KEY = 3'd4, F3_BLOCK = 3'd5, F3_CTRL = 3'd6, F3_RESULT = 3'd7;
  localparam logic [6:0] CTRL_CONFIG = 7'd0, CTRL_IV = 7'd1, CTRL_CLEAR = 7'd2;
  localparam logic [6:0] CTRL_STATUS = 7'd3, CTRL_START = 7'd4;

  logic [2:0]  funct3;
  logic [6:0]  funct7;
  logic [1:0]  bs;
  logic [7:0]  si, so_fwd, so_inv;
  logic [31:0] zk_result;

  // Staged operands and engine state.
  logic [255:0] key_q, key_d;
  logic [127:0] block_q, block_d;
  logic [127:0] result_q, result_d;
  logic         result_valid_q, result_valid_d;
  logic [1:0]   mode_q, mode_d, klen_q, klen_d;
  logic         dir_q, dir_d;
  logic         start_q, start_d;     // block offered to the engine
  logic         inflight_q, inflight_d;
  logic         err_q, err_d;
  // Response register: one answer in flight at most.
  logic         rsp_valid_q, rsp_valid_d;
  logic [31:0]  rsp_q, rsp_d;

  logic         accept, wait_result, cfg_we;
  logic         eng_key_we, eng_iv_we, eng_clear, eng_in_ready, eng_out_valid, eng_key_ready;
  // The engine's strobes, a cycle after their command: registers, so that the engine's inputs
  // start at flip-flops instead of behind the decode of the CPU's command (on ECP5 the two were
  // in series, the block's deepest path: docs/fpga.md, "Logic depth").
  logic         eng_key_we_q, eng_iv_we_q, eng_clear_q, eng_pending;
  logic         eng_busy, eng_err;
  logic         eng_idle;  // the engine (or its stand-in) cannot change state by itself
  logic [127:0] eng_out, eng_iv_unused, eng_tag_unused;
  logic         eng_tag_valid_unused, eng_tag_mismatch_unused;

  assign funct3 = cmd_function_id_i[2:0];
  assign funct7 = cmd_function_id_i[9:3];
  assign bs     = funct7[1:0];

  // Selects by funct7 without index arithmetic: an index such as 255 - 64*n is built as an
  // adder, a carry chain on ECP5, in series with the operand path; a shift by a concatenation
  // of select bits is a multiplexer.
  logic [7:0]  operand_byte;  // byte bs of rs2
  logic [31:0] result_word;   // word funct7[1:0] of the result, word 0 the most significant
  assign operand_byte = 8'(cmd_inputs_1_i >> {bs, 3'd0});
  assign result_word  = 32'(result_q >> {~funct7[1:0], 5'd0});

  logic [63:0] operand64;  // KEY and BLOCK commands: rs1, rs2 as a big-endian double word
  assign operand64 = {aes_pkg::bswap(cmd_inputs_0_i), aes_pkg::bswap(cmd_inputs_1_i)};

  // ---- Zkne / Zknd round functions (RISC-V scalar crypto, aes32* definitions) ----
  // Operand isolation: the CPU drives its operand bus whether or not it issues a CFU command,
  // so the S-box input is held at zero except during a Zkn op, or the S-boxes would switch
  // with every instruction (measured: docs/aes_interfaces.md, switching activity).
  assign si     = (cmd_valid_i && !funct3[2]) ? operand_byte : 8'h00;
  // Two S-boxes, not one with a direction select: on ECP5 two tables take fewer LUT4 and half
  // the levels of one table for both directions (docs/aes_engine.md, "S-box implementation").
  aes_sbox_sel #(
    .Impl     (SBoxImpl),
    .DecEnable(1'b0)
  ) u_sbox_fwd (
    .data_i(si),
    .inv_i (1'b0),
    .data_o(so_fwd)
  );
  aes_sbox_sel #(
    .Impl     (SBoxImpl),
    .DecEnable(1'b1)
  ) u_sbox_inv (
    .data_i(si),
    .inv_i (1'b1),
    .data_o(so_inv)
  );

  function automatic logic [7:0] gmul(logic [7:0] b, logic [3:0] k);
    logic [7:0] acc, p;
    acc = '0;
    p   = b;
    for (int i = 0; i < 4; i++) begin
      if (k[i]) acc = acc ^ p;
      p = {p[6:0], 1'b0} ^ (p[7] ? 8'h1b : 8'h00);  // xtime, FIPS-197 4.2.1
    end
    gmul = acc;
  endfunction

  function automatic logic [31:0] rol8(logic [31:0] w, logic [1:0] n);
    logic [31:0] r;
    unique case (n)
      2'd0:    r = w;
      2'd1:    r = {w[23:0], w[31:24]};
      2'd2:    r = {w[15:0], w[31:16]};
      default: r = {w[7:0], w[31:8]};
    endcase
    rol8 = r;
  endfunction

  always_comb begin
    unique case (funct3)
      F3_ESI:  zk_result = {24'd0, so_fwd};
      F3_ESMI: zk_result = {gmul(so_fwd, 4'h3), so_fwd, so_fwd, gmul(so_fwd, 4'h2)};
      F3_DSI:  zk_result = {24'd0, so_inv};
      default: zk_result = {gmul(so_inv, 4'hb), gmul(so_inv, 4'hd), gmul(so_inv, 4'h9),
                            gmul(so_inv, 4'he)};
    endcase
  end

  // ---- command handling ----
  // A RESULT read with a block in flight is held until the engine delivers.
  // An engine error stops it for good (until CLEAR), so never wait on it then.
  assign wait_result = (funct3 == F3_RESULT) && !result_valid_q && (inflight_q || start_q) &&
                       !(err_q || eng_err);
  assign cmd_ready_o = (!rsp_valid_q || rsp_ready_i) && !(cmd_valid_i && wait_result);
  assign accept      = cmd_valid_i && cmd_ready_o;

  // Kept apart from the main next-state logic: the engine sees these combinationally.
  assign cfg_we     = accept && (funct3 == F3_CTRL) && (funct7 == CTRL_CONFIG);
  assign eng_key_we = cfg_we;
  assign eng_iv_we  = accept && (funct3 == F3_CTRL) && (funct7 == CTRL_IV);
  assign eng_clear  = accept && (funct3 == F3_CTRL) && (funct7 == CTRL_CLEAR);
  // A strobe not yet taken: STATUS answers busy, and no key ready while a key load or clear waits.
  assign eng_pending = eng_key_we_q || eng_iv_we_q || eng_clear_q;
  assign mode_d = cfg_we ? cmd_inputs_0_i[1:0] : mode_q;
  assign dir_d  = cfg_we ? cmd_inputs_0_i[2]   : dir_q;
  assign klen_d = cfg_we ? cmd_inputs_0_i[4:3] : klen_q;

  always_comb begin
    key_d          = key_q;
    block_d        = block_q;
    result_d       = result_q;
    result_valid_d = result_valid_q;
    start_d        = start_q;
    inflight_d     = inflight_q;
    err_d          = err_q | eng_err;
    rsp_valid_d    = rsp_valid_q && !rsp_ready_i;
    rsp_d          = rsp_q;

    if (start_q && eng_in_ready) begin
      start_d    = 1'b0;
      inflight_d = 1'b1;
    end
    if (eng_out_valid && !result_valid_q) begin
      result_d       = eng_out;
      result_valid_d = 1'b1;
      inflight_d     = 1'b0;
    end

    if (accept) begin
      rsp_valid_d = 1'b1;
      rsp_d       = '0;
      unique case (funct3)
        F3_ESI, F3_ESMI, F3_DSI, F3_DSMI: begin
          rsp_d = cmd_inputs_0_i ^ rol8(zk_result, bs);
          if (funct7[6:2] != '0) err_d = 1'b1;
        end
        F3_KEY: begin
          unique case (funct7[1:0])
            2'd0:    key_d[255:192] = operand64;
            2'd1:    key_d[191:128] = operand64;
            2'd2:    key_d[127:64]  = operand64;
            default: key_d[63:0]    = operand64;
          endcase
          if (funct7[6:2] != '0) err_d = 1'b1;
        end
        F3_BLOCK: begin
          if (funct7[0]) begin
            block_d[63:0] = operand64;
          end else begin
            block_d[127:64] = operand64;
          end
          if (funct7[1]) start_d = 1'b1;
          if (funct7[6:2] != '0) err_d = 1'b1;
        end
        F3_CTRL: begin
          unique case (funct7)
            CTRL_CONFIG, CTRL_IV: ;  // engine strobes below
            CTRL_CLEAR: begin
              key_d          = '0;
              block_d        = '0;
              result_d       = '0;
              result_valid_d = 1'b0;
              start_d        = 1'b0;
              inflight_d     = 1'b0;
              err_d          = 1'b0;
            end
            CTRL_STATUS: rsp_d = {28'd0, err_q, eng_busy | inflight_q | start_q | eng_pending,
                                  result_valid_q, eng_key_ready & ~(eng_key_we_q | eng_clear_q)};
            CTRL_START:  start_d = 1'b1;
            default:     err_d = 1'b1;
          endcase
        end
        default: begin  // F3_RESULT
          if (result_valid_q) begin
            rsp_d = aes_pkg::bswap(result_word);
            if (funct7[1:0] == 2'd3) result_valid_d = 1'b0;
          end else begin
            err_d = 1'b1;  // nothing in flight: answer 0 rather than wait forever
          end
          if (funct7[6:2] != '0) err_d = 1'b1;
        end
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      key_q          <= '0;
      block_q        <= '0;
      result_q       <= '0;
      result_valid_q <= 1'b0;
      mode_q         <= '0;
      dir_q          <= 1'b0;
      klen_q         <= '0;
      start_q        <= 1'b0;
      inflight_q     <= 1'b0;
      err_q          <= 1'b0;
      rsp_valid_q    <= 1'b0;
      rsp_q          <= '0;
      eng_key_we_q   <= 1'b0;
      eng_iv_we_q    <= 1'b0;
      eng_clear_q    <= 1'b0;
    end else begin
      key_q          <= key_d;
      block_q        <= block_d;
      result_q       <= result_d;
      result_valid_q <= result_valid_d;
      mode_q         <= mode_d;
      dir_q          <= dir_d;
      klen_q         <= klen_d;
      start_q        <= start_d;
      inflight_q     <= inflight_d;
      err_q          <= err_d;
      rsp_valid_q    <= rsp_valid_d;
      rsp_q          <= rsp_d;
      eng_key_we_q   <= eng_key_we;
      eng_iv_we_q    <= eng_iv_we;
      eng_clear_q    <= eng_clear;
    end
  end

  assign rsp_valid_o     = rsp_valid_q;
  assign rsp_outputs_0_o = rsp_q;

  // Clock-gating hint. Every register change needs accept (cmd_valid_i), a pending response
  // (cleared by rsp_ready_i; not idle while one waits), an engine event (eng_idle) or err_q
  // taking up eng_err.
  assign idle_o = !cmd_valid_i && !rsp_valid_q && eng_idle && !(eng_err && !err_q);

  if (CoarseOps) begin : gen_engine
  aes_engine #(
    .RoundsPerCycle (RoundsPerCycle),
    .Pipelined      (1'b0),
    .DecEnable      (1'b1),
    .KeyLenMax      (256),
    .SBoxImpl       (SBoxImpl)
  ) u_engine (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    // The configuration CONFIG set, in the cycle its key load reaches the engine.
    .mode_i      (mode_q),
    .dir_i       (dir_q),
    .key_len_i   (klen_q),
    .ctr_width_i (aes_pkg::AES_CTR_128),
    .key_i       (key_q),
    .key_we_i    (eng_key_we_q),
    .key_ready_o (eng_key_ready),
    .iv_i        (block_q),
    .iv_we_i     (eng_iv_we_q),
    .iv_o        (eng_iv_unused),
    .clear_i     (eng_clear_q),
    .in_valid_i  (start_q),
    .in_ready_o  (eng_in_ready),
    .in_data_i   (block_q),
    .out_valid_o (eng_out_valid),
    .out_ready_i (!result_valid_q),
    .out_data_o  (eng_out),
    // GCM is not built here (GhashBits = 0): its inputs are tied off.
    .gcm_phase_i        (aes_pkg::AES_GCM_AAD),
    .gcm_bytes_i        (4'd0),
    .gcm_start_i        (1'b0),
    .gcm_final_i        (1'b0),
    .gcm_tag_len_i      (4'd0),
    .gcm_tag_i          (128'd0),
    .gcm_tag_o          (eng_tag_unused),
    .gcm_tag_valid_o    (eng_tag_valid_unused),
    .gcm_tag_mismatch_o (eng_tag_mismatch_unused),
    .prng_seed_i        (128'd0),  // unmasked engine (Masking = 0): no PRNG
    .prng_seed_we_i     (1'b0),
    .busy_o      (eng_busy),
    .err_o       (eng_err)
  );
  // busy_o covers key expansion after CONFIG, a block in the core and a result held there;
  // start_q offers a block (taken, or err raised); inflight_q waits for eng_out_valid. With
  // none of them and no key/IV/clear strobe (all need accept) the engine holds every register.
  assign eng_idle = !eng_busy && !start_q && !inflight_q && !eng_pending;
  end else begin : gen_no_engine
    // Every coarse op is refused: err is raised the first time one is accepted.
    logic coarse_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        coarse_q <= 1'b0;
      end else begin
        coarse_q <= accept && (funct3 >= F3_KEY) && !(funct3 == F3_CTRL && funct7 == CTRL_STATUS);
      end
    end
    assign eng_in_ready  = 1'b0;
    assign eng_out_valid = 1'b0;
    assign eng_out       = '0;
    assign eng_iv_unused = '0;
    assign eng_tag_unused = '0;
    assign eng_tag_valid_unused = 1'b0;
    assign eng_tag_mismatch_unused = 1'b0;
    assign eng_busy      = 1'b0;
    assign eng_key_ready = 1'b0;
    assign eng_err       = coarse_q;
    // coarse_q falls back by itself. start_q and inflight_q cannot move without an engine
    // (eng_in_ready = 0), so a staged start is no work here.
    assign eng_idle      = !coarse_q;
    logic unused_engine;
    assign unused_engine = ^{eng_key_we, eng_iv_we, eng_clear, mode_d, dir_d, klen_d, key_q};
  end

  logic unused;
  assign unused = ^{eng_iv_unused, eng_tag_unused, eng_tag_valid_unused, eng_tag_mismatch_unused};

endmodule

`default_nettype wire
