// SPDX-License-Identifier: Apache-2.0
// AES mode engine: ECB/CBC/CTR around aes_cipher_core, with IV/counter, key, zeroise and errors.

`default_nettype none

// Bus-neutral top of the AES IP: a register block, a DMA path or an XIP read path sits on it.
// Blocks stream in and out as 128-bit words with valid/ready on both sides (byte 0 of a block in
// bits [127:120]). The configuration inputs (mode_i, dir_i, key_len_i, ctr_width_i) must not
// change while busy_o is high; the key and IV may only be written while busy_o is low.
//
//   ECB:     out = AES(in)                      (or AES^-1(in) with dir_i = DEC)
//   CBC enc: out = AES(in ^ C_prev)             C_prev = chaining value, updated on output
//   CBC dec: out = AES^-1(in) ^ C_prev          C_prev updated on input (pipelines fully)
//   CTR:     out = AES(counter) ^ in            counter incremented in its low 32/64/128 bits
//
// iv_o reads back the chaining value (CBC) or the next counter block (CTR); the key cannot be
// read back. err_o is raised, and the engine stops taking and giving blocks, on: a block
// offered with a mode, direction or key length the parameters removed or that are not encoded,
// a key length other than the loaded key's, a configuration that differs from the one of the
// blocks in flight, a block before any key, or a key or IV write while busy. clear_i zeroises
// every register (key, decryption key, round-key state, IV, data, error) in one cycle.
module aes_engine #(
  parameter int unsigned RoundsPerCycle = 1,     // 1, 2, 3 or 5; 0: full unroll
  parameter bit          Pipelined      = 1'b0,  // 1: one register stage per round (needs 0 above)
  parameter bit          DecEnable      = 1'b1,  // 0: encrypt-only (ECB/CBC decrypt raise err_o)
  parameter int unsigned KeyLenMax      = 256,   // 128: AES-128 only; 256: AES-128/192/256
  // 128: aes_cipher_core (the round datapath above); 32: aes_cipher_col, one column per cycle
  // (RoundsPerCycle and Pipelined then unused)
  parameter int unsigned Datapath       = 128,
  parameter int unsigned SBoxImpl       = 0      // Datapath 32: its S-boxes (aes_sbox_sel)
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic [1:0]   mode_i,       // aes_pkg::AES_MODE_*
  input  logic         dir_i,        // aes_pkg::AES_DIR_*
  input  logic [1:0]   key_len_i,    // aes_pkg::AES_KEY_*
  input  logic [1:0]   ctr_width_i,  // aes_pkg::AES_CTR_*: incrementing part of the counter

  input  logic [255:0] key_i,        // key byte 0 in bits [255:248]; write-only
  input  logic         key_we_i,
  output logic         key_ready_o,  // key loaded and decryption key derived

  input  logic [127:0] iv_i,
  input  logic         iv_we_i,
  output logic [127:0] iv_o,

  input  logic         clear_i,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [127:0] in_data_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_data_o,

  output logic         busy_o,
  output logic         err_o
);
  localparam int unsigned NR_TOP = (KeyLenMax == 128) ? 10 : 14;
  localparam int unsigned CNT_W  = $clog2(NR_TOP + 3);

  // Normalised configuration of a block: fields that do not apply to the mode are zero.
  typedef struct packed {
    logic [1:0] mode;
    logic       dir;
    logic [1:0] key_len;
    logic [1:0] ctr_width;
  } cfg_t;

  cfg_t             cfg, cfg_q, cfg_d;
  logic [127:0]     iv_q, iv_d, ctr_next;
  logic [1:0]       klen_q, klen_d;
  logic             kloaded_q, kloaded_d;
  logic             err_q, err_d;
  logic [CNT_W-1:0] inflight_q, inflight_d;

  logic             core_in_valid, core_in_ready, core_dec, core_out_valid, core_out_ready;
  logic [127:0]     core_block, core_mask, core_out_data;
  logic             core_busy, core_key_we;
  logic             busy, accept, out_fire;
  logic             mode_ok, dec_ok, klen_ok, ctrw_ok, key_ok, same_ok, cfg_ok, chain_ok;
  logic             cbc_enc;

  /////////////////////////////
  // Configuration checking  //
  /////////////////////////////

  always_comb begin
    cfg           = '0;
    cfg.mode      = mode_i;
    cfg.dir       = (mode_i == aes_pkg::AES_MODE_CTR) ? aes_pkg::AES_DIR_ENC : dir_i;
    cfg.key_len   = key_len_i;
    cfg.ctr_width = (mode_i == aes_pkg::AES_MODE_CTR) ? ctr_width_i : aes_pkg::AES_CTR_32;
  end

  assign busy    = (inflight_q != '0) | core_busy;
  assign mode_ok = (mode_i == aes_pkg::AES_MODE_ECB) | (mode_i == aes_pkg::AES_MODE_CBC) |
                   (mode_i == aes_pkg::AES_MODE_CTR);
  assign dec_ok  = DecEnable | (cfg.dir == aes_pkg::AES_DIR_ENC);
  assign klen_ok = (key_len_i == aes_pkg::AES_KEY_128) |
                   ((KeyLenMax == 256) &
                    ((key_len_i == aes_pkg::AES_KEY_192) | (key_len_i == aes_pkg::AES_KEY_256)));
  assign ctrw_ok = (cfg.ctr_width == aes_pkg::AES_CTR_32) | (cfg.ctr_width == aes_pkg::AES_CTR_64) |
                   (cfg.ctr_width == aes_pkg::AES_CTR_128);
  assign key_ok  = kloaded_q & (key_len_i == klen_q);
  assign same_ok = (inflight_q == '0) | (cfg == cfg_q);
  assign cfg_ok  = mode_ok & dec_ok & klen_ok & ctrw_ok & key_ok & same_ok;

  // CBC encryption chains on the previous ciphertext: one block in flight at a time, the next one
  // taken in the cycle the previous result leaves.
  assign cbc_enc  = (cfg.mode == aes_pkg::AES_MODE_CBC) & (cfg.dir == aes_pkg::AES_DIR_ENC);
  assign chain_ok = ~cbc_enc | (inflight_q == '0) |
                    ((inflight_q == CNT_W'(1)) & out_fire);

  assign in_ready_o    = core_in_ready & cfg_ok & chain_ok & ~err_q;
  assign core_in_valid = in_valid_i & cfg_ok & chain_ok & ~err_q;
  assign accept        = in_valid_i & in_ready_o;

  assign out_valid_o    = core_out_valid & ~err_q;
  assign core_out_ready = out_ready_i & ~err_q;
  assign out_fire       = out_valid_o & out_ready_i;
  assign out_data_o     = core_out_data;

  assign core_key_we = key_we_i & ~busy & klen_ok & ~err_q;

  ////////////////////////
  // Mode datapath      //
  ////////////////////////

  always_comb begin
    unique case (ctr_width_i)
      aes_pkg::AES_CTR_64:  ctr_next = {iv_q[127:64], iv_q[63:0] + 64'd1};
      aes_pkg::AES_CTR_128: ctr_next = iv_q + 128'd1;
      default:              ctr_next = {iv_q[127:32], iv_q[31:0] + 32'd1};
    endcase
  end

  always_comb begin
    core_block = in_data_i;
    core_mask  = '0;
    core_dec   = cfg.dir;
    unique case (cfg.mode)
      aes_pkg::AES_MODE_CBC: begin
        if (cfg.dir == aes_pkg::AES_DIR_DEC) begin
          core_mask = iv_q;
        end else begin
          core_block = in_data_i ^ (out_fire ? core_out_data : iv_q);
        end
      end
      aes_pkg::AES_MODE_CTR: begin
        core_block = iv_q;
        core_mask  = in_data_i;
      end
      default: ;
    endcase
  end

  always_comb begin
    iv_d       = iv_q;
    cfg_d      = cfg_q;
    klen_d     = klen_q;
    kloaded_d  = kloaded_q;
    inflight_d = inflight_q;
    err_d      = err_q;

    if (iv_we_i & ~busy & ~err_q) begin
      iv_d = iv_i;
    end
    if (core_key_we) begin
      klen_d    = key_len_i;
      kloaded_d = 1'b1;
    end
    if (out_fire & (cfg_q.mode == aes_pkg::AES_MODE_CBC) &
        (cfg_q.dir == aes_pkg::AES_DIR_ENC)) begin
      iv_d = core_out_data;
    end
    if (accept) begin
      cfg_d = cfg;
      if (cfg.mode == aes_pkg::AES_MODE_CTR) begin
        iv_d = ctr_next;
      end else if ((cfg.mode == aes_pkg::AES_MODE_CBC) & (cfg.dir == aes_pkg::AES_DIR_DEC)) begin
        iv_d = in_data_i;
      end
    end
    unique case ({accept, out_fire})
      2'b10:   inflight_d = inflight_q + CNT_W'(1);
      2'b01:   inflight_d = inflight_q - CNT_W'(1);
      default: ;
    endcase
    if ((in_valid_i & ~cfg_ok) | (key_we_i & (busy | ~klen_ok)) | (iv_we_i & busy)) begin
      err_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iv_q       <= '0;
      cfg_q      <= '0;
      klen_q     <= aes_pkg::AES_KEY_128;
      kloaded_q  <= 1'b0;
      inflight_q <= '0;
      err_q      <= 1'b0;
    end else if (clear_i) begin
      iv_q       <= '0;
      cfg_q      <= '0;
      klen_q     <= aes_pkg::AES_KEY_128;
      kloaded_q  <= 1'b0;
      inflight_q <= '0;
      err_q      <= 1'b0;
    end else begin
      iv_q       <= iv_d;
      cfg_q      <= cfg_d;
      klen_q     <= klen_d;
      kloaded_q  <= kloaded_d;
      inflight_q <= inflight_d;
      err_q      <= err_d;
    end
  end

  assign iv_o   = iv_q;
  assign busy_o = busy;
  assign err_o  = err_q;

  if (Datapath == 32) begin : gen_col
    aes_cipher_col #(
      .DecEnable(DecEnable),
      .KeyLenMax(KeyLenMax),
      .SBoxImpl (SBoxImpl)
    ) u_cipher_core (
      .clk_i,
      .rst_ni,
      .clear_i,
      .key_i,
      .key_len_i,
      .key_we_i   (core_key_we),
      .key_ready_o,
      .in_valid_i (core_in_valid),
      .in_ready_o (core_in_ready),
      .in_dec_i   (core_dec),
      .in_block_i (core_block),
      .in_mask_i  (core_mask),
      .out_valid_o(core_out_valid),
      .out_ready_i(core_out_ready),
      .out_data_o (core_out_data),
      .busy_o     (core_busy)
    );
  end else begin : gen_round
    aes_cipher_core #(
      .RoundsPerCycle(RoundsPerCycle),
      .Pipelined     (Pipelined),
      .DecEnable     (DecEnable),
      .KeyLenMax     (KeyLenMax)
    ) u_cipher_core (
      .clk_i,
      .rst_ni,
      .clear_i,
      .key_i,
      .key_len_i,
      .key_we_i   (core_key_we),
      .key_ready_o,
      .in_valid_i (core_in_valid),
      .in_ready_o (core_in_ready),
      .in_dec_i   (core_dec),
      .in_block_i (core_block),
      .in_mask_i  (core_mask),
      .out_valid_o(core_out_valid),
      .out_ready_i(core_out_ready),
      .out_data_o (core_out_data),
      .busy_o     (core_busy)
    );
  end

  ////////////////
  // Assertions //
  ////////////////

`ifdef ASSERT_ON
  // Parameters name a supported variant.
  if (!(RoundsPerCycle == 0 || RoundsPerCycle == 1 || RoundsPerCycle == 2 ||
        RoundsPerCycle == 3 || RoundsPerCycle == 5) || (Pipelined && RoundsPerCycle != 0) ||
      !(KeyLenMax == 128 || KeyLenMax == 256) || !(Datapath == 128 || Datapath == 32) ||
      SBoxImpl > 1) begin : gen_param_check
    $error("aes_engine: unsupported parameter set");
  end
  // Written without rst_ni (Verilator flags a reset used both asynchronously and synchronously);
  // each property also holds while the registers are held in reset.
  // Nothing leaves the engine once it has flagged an error.
  NoOutputOnErr_A: assert property (@(posedge clk_i) err_o |-> !out_valid_o && !in_ready_o);
  // A block offered with a configuration the engine cannot run raises the error flag.
  BadCfgErr_A: assert property (@(posedge clk_i) in_valid_i && !cfg_ok |-> err_d);
  // Clear empties the engine in one cycle.
  ClearBounded_A: assert property (@(posedge clk_i)
      clear_i |=> !busy_o && !err_o && !key_ready_o && iv_o == '0);
  // The in-flight count never wraps.
  InflightBound_A: assert property (@(posedge clk_i) inflight_q <= CNT_W'(NR_TOP + 2));
`endif

endmodule

`default_nettype wire
