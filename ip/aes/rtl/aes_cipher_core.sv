// SPDX-License-Identifier: Apache-2.0
// AES cipher core: iterative (1/2/3/5 rounds per cycle), fully unrolled, or unrolled and pipelined.

`default_nettype none

// Block interface: valid/ready in, valid/ready out. Each block carries a direction and a 128-bit
// mask that travels with it and is XORed onto the cipher result (out = AES(block) ^ mask), which
// lets the mode engine do CBC decryption and CTR without holding data outside the core.
//
// Round keys are computed on the fly from the cipher key (encryption, forward schedule) or from
// the decryption key (the last window of the schedule, backward), which the core derives once per
// key write: key_ready_o stays low while it does.
//
// Split round (SplitRound = 1, one round per cycle, not pipelined): a register between
// (Inv)ShiftRows/(Inv)SubBytes and the rest of the round, so a round takes two cycles of about
// half the logic depth; the key schedule steps in the first and its round key is read from the
// window register in the second. Cycles per block = latency = 1 + 2 * Nr; the decryption key is
// still derived in Nr cycles (the key step alone fits a cycle).
//
// Iterative (Pipelined = 0): a block is accepted with AddRoundKey(rk0) applied, then NS rounds
// run per cycle for ceil(Nr / NS) cycles (NS = RoundsPerCycle, or the maximal Nr for full unroll),
// and the result waits in the state register until taken; a new block may be accepted in the same
// cycle. Cycles per block = latency = 1 + ceil(Nr / NS). Decryption key derivation takes
// ceil(Nr / NS) cycles.
//
// Pipelined (RoundsPerCycle = 0, Pipelined = 1): one register stage per round, so a block enters
// every cycle; latency 1 + Nr. The round keys come from an unregistered chain of key steps off the
// key registers, which only change while the pipeline is empty. The whole pipeline stalls while
// the result is not taken (in_ready_o depends on out_ready_i). Derivation takes one cycle.
module aes_cipher_core #(
  parameter int unsigned RoundsPerCycle = 1,     // 1, 2, 3 or 5; 0: full unroll
  parameter bit          Pipelined      = 1'b0,  // 1: register every round (full unroll only)
  parameter bit          DecEnable      = 1'b1,  // 0: encryption only
  parameter int unsigned KeyLenMax      = 256,   // 128: AES-128 only; 256: AES-128/192/256
  parameter bit          SplitRound     = 1'b0,  // 1: two cycles per round (RoundsPerCycle = 1)
  // Every S-box (rounds and key steps, aes_sbox_sel): 0 tower field, the smallest on iCE40; 1
  // tables, about half the LUT levels on ECP5 (docs/aes_engine.md, "S-box implementation")
  parameter int unsigned SBoxImpl       = 0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,      // zeroise every register in one cycle

  // Write-only key port; key_len_i is sampled with key_we_i, which is ignored while busy_o.
  input  logic [255:0] key_i,
  input  logic [1:0]   key_len_i,
  input  logic         key_we_i,
  output logic         key_ready_o,  // key loaded and decryption key derived

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic         in_dec_i,
  input  logic [127:0] in_block_i,
  input  logic [127:0] in_mask_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_data_o,

  output logic         busy_o        // a block in the core or key derivation running
);
  localparam int unsigned NR_TOP = (KeyLenMax == 128) ? 10 : 14;
  localparam int unsigned NS     = (RoundsPerCycle == 0) ? NR_TOP : RoundsPerCycle;
  // Key-window bits that can be non-zero: AES-128-only cores keep four words, so the unused
  // half of every window register is a constant here (not only inside aes_key_expand).
  localparam logic [255:0] KEY_KEEP = (KeyLenMax == 128) ? {{128{1'b1}}, 128'h0} : {256{1'b1}};

  ////////////////////
  // Key registers  //
  ////////////////////

  logic [255:0] key_q;           // cipher key: window 0 of the schedule
  // Decryption key: window Nr of the schedule; in the iterative core when not split, window Nr - 1
  // in words 0-3 and round key Nr in words 4-7 (the datapath's gen_dwin).
  logic [255:0] dkey_q;
  logic [1:0]   klen_q, klen_d;
  logic [3:0]   nr;
  logic [255:0] key_in;          // key_i as a key load stores it (the window register takes it too)
  logic         key_load;        // key_we_i taken this cycle
  logic         dkey_load;       // derived decryption key written this cycle
  logic [255:0] dkey_new;
  logic         unused_kvalid;   // key_ready_o says it

  logic [255:0] key_r, dkey_r;   // as aes_key_regs holds them

  // nr from klen_q here, not from the key registers: a function of two bits, so a choice by nr
  // (the pipelined core's result stage) is among three values, not sixteen. The synthesis of the
  // area figures keeps the hierarchy and sees no constant through a port: the words an AES-128-only
  // core never uses are masked again on this side, and dkey_i is tied to zero without DecEnable.
  assign nr     = aes_pkg::num_rounds(klen_q);
  assign key_in = aes_pkg::key_align(key_i, (KeyLenMax == 128) ? aes_pkg::AES_KEY_128 : key_len_i);
  assign key_q  = key_r & KEY_KEEP;
  assign dkey_q = dkey_r & KEY_KEEP;

  aes_key_regs #(
    .DecEnable(DecEnable),
    .KeyLenMax(KeyLenMax),
    .SyncWipe (1'b0)
  ) u_key_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clear_i    (clear_i),
    .key_i      (key_i),
    .key_len_i  (key_len_i),
    .key_load_i (key_load),
    .dkey_load_i(DecEnable & dkey_load),
    .dkey_i     (DecEnable ? dkey_new : '0),  // a constant when unused: no net to keep
    .key_o      (key_r),
    .klen_o     (klen_q),
    .klen_d_o   (klen_d),
    .kvalid_o   (unused_kvalid),
    .dkey_o     (dkey_r),
    .key_ready_o(key_ready_o)
  );

  ///////////////
  // Datapath  //
  ///////////////

  // The iterative datapath's control as tables over {key length, count} (bit 16 * klen_q + cnt_q),
  // built at elaboration with the five-bit count arithmetic the datapath used before. On ECP5
  // an adder or comparator on the count is a carry chain: as the select of the 256-bit window
  // multiplexers it was the deepest input of the core's own logic, and ABC9, mapping for delay,
  // built each window bit of five- to seven-input functions (PFUMX, L6MUX21) to make up for it
  // (docs/aes_engine.md, "Window one round ahead").
  localparam logic [2:0] CTL_EN     = 3'd0;  // stage s runs a round: q <= Nr
  localparam logic [2:0] CTL_FINAL  = 3'd1;  // its round is the last: q == Nr
  localparam logic [2:0] CTL_KEN_KG = 3'd2;  // it steps the window in its own round: q - 1 < Nr
  localparam logic [2:0] CTL_LAST   = 3'd3;  // the cycle is the last: (cnt + 1) * NS >= Nr

  function automatic logic [63:0] ctl_table(logic [4:0] stage, logic [2:0] kind);
    logic [4:0] c, n, q;
    ctl_table = '0;
    for (int i = 0; i < 64; i++) begin
      c = 5'(i % 16);
      n = {1'b0, aes_pkg::num_rounds(2'(i / 16))};
      q = c * 5'(NS) + stage + 5'd1;
      unique case (kind)
        CTL_EN:     ctl_table[i] = q <= n;
        CTL_FINAL:  ctl_table[i] = q == n;
        CTL_KEN_KG: ctl_table[i] = (q - 5'd1) < n;
        default:    ctl_table[i] = (c + 5'd1) * 5'(NS) >= n;
      endcase
    end
  endfunction


  if (!Pipelined) begin : gen_iterative
    typedef enum logic [1:0] {
      ST_IDLE   = 2'd0,
      ST_RUN    = 2'd1,
      ST_DONE   = 2'd2,
      ST_KEYGEN = 2'd3
    } state_e;

    state_e       fsm_q, fsm_d;
    logic [127:0] state_q, state_d, mask_q, mask_d;
    logic [255:0] win_q, win_d;
    logic [3:0]   cnt_q, cnt_d;
    // Stage 0's key step number, a register so that no count arithmetic precedes the SubWord
    // select; stage s takes step kstep_q + s (forward) or kstep_q - s (backward).
    logic [3:0]   kstep_q, kstep_d;
    logic         dec_q, dec_d;
    // Stage 0's SubWord word, one-hot (aes_pkg::key_sub_sel of klen_q, dec_q, kstep_q), a register
    // so that the choice is made a cycle ahead and only an AND-OR precedes the key step's S-boxes.
    // Held with the bit of w3 inverted (KSEL_FLIP): the choice after reset and clear is w3, and
    // the register is zero then, like every other.
    localparam logic [5:0] KSEL_FLIP = 6'(1) << aes_pkg::KEY_SUB_V3;
    logic [5:0]   ksel_q, ksel_d;
    logic         last, accept;
    // SplitRound: the first half's result and which half runs (0: SubBytes, 1: the rest).
    logic [127:0] mid_q, mid_d, run_mid;
    logic         half_q, half_d;

    // NS rounds in one cycle: stage s runs round number q = cnt * NS + s + 1 if q <= Nr.
    logic [127:0] run_state;
    logic [255:0] run_win;

    // Not split, the window register runs one round ahead: it holds the window of the round that
    // runs next, so a round reads its key from a register and the key step for the following
    // round runs beside the round instead of in series with it. Split and ST_KEYGEN step the
    // window in the round itself. In forward numbering a stage's expander reads window j and
    // writes window j + 1.
    // A block is taken with round 1's window. While no block runs (IDLE, DONE) the window
    // register holds the cipher key, kstep_q = 0 and dec_q = 0, so stage 0 already computes
    // window 1 from registers alone. For decryption, ST_KEYGEN leaves dkey_q holding window
    // Nr - 1 (words 0-3) and round key Nr (words 4-7, where the window's own words 4-7 are, when
    // it has them, the same words w[4 Nr] ...), so a block takes both from one register:
    // in_dec_i only picks, and never feeds a key step (the CFU drives it combinationally from
    // the CPU's command). A fixed backward step off window Nr instead costs a whole expander
    // (four S-boxes, every key length, both directions: the area figures keep the hierarchy).
    // Taken for a block, words 4-7 beyond an AES-128 or -192 window hold round key Nr words for
    // its first cycle: no key step reads them (aes_pkg::key_sub_in, aes_key_expand) and the step
    // writes them zero; masking them cost about 260 LUT4 on ECP5.
    // Window Nr - 1 is the window that the stage stepping into window Nr reads.
    logic [127:0] dwin_new;

    if (DecEnable && !SplitRound) begin : gen_dwin
      if (NS == 1) begin : gen_one
        assign dwin_new = win_q[255:128];
      end else begin : gen_sel
        // Unpacked: Yosys cannot size a packed 2-D net declared inside a generate block.
        logic [127:0] dwin_opt [NS];
        for (genvar s = 0; s < NS; s++) begin : gen_opt
          assign dwin_opt[s] = gen_stage[s].fin ? gen_stage[s].win_in[255:128] : '0;
        end
        always_comb begin
          dwin_new = '0;
          for (int s = 0; s < NS; s++) begin
            dwin_new = dwin_new | dwin_opt[s];
          end
        end
      end
      assign dkey_new = {dwin_new, run_win[255:128]};
    end else begin : gen_no_dwin
      logic unused_dwin;
      assign unused_dwin = ^dwin_new;
      assign dwin_new    = '0;
      assign dkey_new    = run_win;
    end

    logic [5:0] ctl_idx;
    assign ctl_idx = {klen_q, cnt_q};

    for (genvar s = 0; s < NS; s++) begin : gen_stage
      localparam logic [63:0] EnTab    = ctl_table(5'(s), CTL_EN);
      localparam logic [63:0] FinalTab = ctl_table(5'(s), CTL_FINAL);
      localparam logic [63:0] KenKgTab = ctl_table(5'(s), CTL_KEN_KG);
      logic         en, fin, ken;
      logic [3:0]   step;
      logic [255:0] win_in, kw, win_out;
      logic [127:0] st_in, rs, st_out, sub;

      if (s == 0) begin : gen_first
        assign st_in  = state_q;
        assign win_in = win_q;
      end else begin : gen_chain
        logic unused_sub;
        assign unused_sub = ^sub;  // only the first stage's half is split off
        assign st_in      = gen_stage[s - 1].st_out;
        assign win_in     = gen_stage[s - 1].win_out;
      end

      // Stage s runs round q = cnt * NS + s + 1 if q <= Nr (en), the last if q = Nr (fin). Its
      // expander reads window j (forward numbering): q - 1 when split or in ST_KEYGEN, else q.
      // ST_KEYGEN (and split) take no step past window Nr: the window is then left as it is, so
      // its last cycle ends at window Nr whatever the rounds per cycle. A block's rounds, window
      // one round ahead, step in every stage: every step is below window Nr but in the last
      // cycle, whose window the restore to the cipher key replaces.
      assign en   = EnTab[ctl_idx];
      assign fin  = FinalTab[ctl_idx];
      assign ken  = (SplitRound || fsm_q == ST_KEYGEN) ? KenKgTab[ctl_idx] : 1'b1;
      assign step = dec_q ? kstep_q - 4'(s) : kstep_q + 4'(s);

      aes_key_expand #(
        .KeyLenMax(KeyLenMax),
        .DecEnable(DecEnable),
        .SBoxImpl (SBoxImpl),
        .SelIn    (s == 0)
      ) u_key_expand (
        .key_len_i(klen_q),
        .bwd_i    (dec_q),
        .step_i   (step),
        .win_i    (win_in),
        .sub_i    (32'h0),
        .sel_i    (s == 0 ? ksel_q ^ KSEL_FLIP : 6'h0),
        .win_o    (kw)
      );

      aes_round #(
        .DecEnable(DecEnable),
        .Split    (SplitRound),
        .SBoxImpl (SBoxImpl)
      ) u_round (
        .state_i(st_in),
        .rk_i   (win_in[255:128]),
        .dec_i  (dec_q),
        .final_i(fin),
        .sub_i  (mid_q),
        .sub_o  (sub),
        .state_o(rs)
      );

      assign win_out = (ken ? kw : win_in) & KEY_KEEP;
      assign st_out  = en ? rs : st_in;
    end

    assign run_state = gen_stage[NS - 1].st_out;
    assign run_win   = gen_stage[NS - 1].win_out;
    assign run_mid   = gen_stage[0].sub;

    localparam logic [63:0] LastTab = ctl_table(5'd0, CTL_LAST);
    assign last      = LastTab[ctl_idx];
    assign accept    = in_valid_i & in_ready_o;

    always_comb begin
      fsm_d       = fsm_q;
      state_d     = state_q;
      mask_d      = mask_q;
      win_d       = win_q;
      cnt_d       = cnt_q;
      kstep_d     = kstep_q;
      dec_d       = dec_q;
      mid_d       = mid_q;
      half_d      = half_q;
      in_ready_o  = 1'b0;
      out_valid_o = 1'b0;
      key_load    = 1'b0;
      dkey_load   = 1'b0;
      unique case (fsm_q)
        ST_IDLE: begin
          in_ready_o = key_ready_o & ~key_we_i;
          if (key_we_i) begin
            key_load = 1'b1;
            win_d    = key_in;
            cnt_d    = '0;
            kstep_d  = '0;
            dec_d    = aes_pkg::AES_DIR_ENC;
            if (DecEnable) begin
              fsm_d = ST_KEYGEN;
            end
          end
        end
        ST_KEYGEN: begin
          cnt_d   = cnt_q + 4'd1;
          kstep_d = kstep_q + 4'(NS);
          win_d   = run_win;
          if (last) begin
            dkey_load = 1'b1;
            fsm_d     = ST_IDLE;
            if (!SplitRound) begin
              win_d   = key_q;
              kstep_d = '0;
            end
          end
        end
        ST_RUN: begin
          if (SplitRound && !half_q) begin
            half_d = 1'b1;
            win_d  = run_win;
            mid_d  = run_mid;
          end else begin
            half_d  = 1'b0;
            cnt_d   = cnt_q + 4'd1;
            kstep_d = dec_q ? kstep_q - 4'(NS) : kstep_q + 4'(NS);
            win_d   = SplitRound ? win_q : run_win;
            state_d = run_state;
            if (last) begin
              fsm_d = ST_DONE;
              if (!SplitRound) begin
                win_d   = key_q;
                kstep_d = '0;
                dec_d   = aes_pkg::AES_DIR_ENC;
              end
            end
          end
        end
        ST_DONE: begin
          out_valid_o = 1'b1;
          in_ready_o  = out_ready_i & key_ready_o;
          if (out_ready_i) begin
            fsm_d = ST_IDLE;
          end
        end
        default: begin
          fsm_d = ST_IDLE;
        end
      endcase
      if (accept) begin
        fsm_d   = ST_RUN;
        cnt_d   = '0;
        half_d  = 1'b0;
        dec_d   = DecEnable ? in_dec_i : aes_pkg::AES_DIR_ENC;
        // The initial AddRoundKey uses the key itself, the window register round 1's window.
        state_d = in_block_i ^ (dec_d ? (SplitRound ? dkey_q[255:128] : dkey_q[127:0]) : key_q[255:128]);
        if (SplitRound) begin
          win_d = dec_d ? dkey_q : key_q;
        end else begin
          win_d = (dec_d ? dkey_q : gen_stage[0].kw) & KEY_KEEP;
        end
        mask_d  = in_mask_i;
        // Stage 0's step in the first cycle of rounds: round 1's (split), else round 2's.
        kstep_d = dec_d ? nr - (SplitRound ? 4'd1 : 4'd2) : (SplitRound ? 4'd0 : 4'd1);
      end
    end

    assign ksel_d = aes_pkg::key_sub_sel(klen_d, dec_d, kstep_d) ^ KSEL_FLIP;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        fsm_q   <= ST_IDLE;
        state_q <= '0;
        mask_q  <= '0;
        win_q   <= '0;
        cnt_q   <= '0;
        kstep_q <= '0;
        dec_q   <= 1'b0;
        ksel_q  <= '0;
      end else if (clear_i) begin
        fsm_q   <= ST_IDLE;
        state_q <= '0;
        mask_q  <= '0;
        win_q   <= '0;
        cnt_q   <= '0;
        kstep_q <= '0;
        dec_q   <= 1'b0;
        ksel_q  <= '0;
      end else begin
        fsm_q   <= fsm_d;
        state_q <= state_d;
        mask_q  <= mask_d;
        win_q   <= win_d;
        cnt_q   <= cnt_d;
        kstep_q <= kstep_d;
        dec_q   <= dec_d;
        ksel_q  <= ksel_d;
      end
    end

    if (SplitRound) begin : gen_mid
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          mid_q  <= '0;
          half_q <= 1'b0;
        end else if (clear_i) begin
          mid_q  <= '0;
          half_q <= 1'b0;
        end else begin
          mid_q  <= mid_d;
          half_q <= half_d;
        end
      end
    end else begin : gen_no_mid
      logic unused_mid;
      assign unused_mid = ^{mid_d, half_d};
      assign mid_q      = '0;
      assign half_q     = 1'b0;
    end

    assign out_data_o = state_q ^ mask_q;
    assign busy_o     = fsm_q != ST_IDLE;

`ifdef ASSERT_ON
    // A waiting result stays put until taken (stated on the next-state logic, reset-free).
    OutHold_A: assert property (@(posedge clk_i) fsm_q == ST_DONE && !out_ready_i |->
        fsm_d == ST_DONE && state_d == state_q && mask_d == mask_q);
`endif

  end else begin : gen_pipelined
    // Stage i holds the block after i rounds; the result of an Nr-round cipher is stage Nr.
    localparam int unsigned NST = NR_TOP + 1;

    // Unpacked stage arrays: Yosys (0.70) cannot size a packed 2-D net declared inside a
    // generate block, and a packed array of a typedef it reads with the wrong element width.
    logic [127:0]   st_q [NST];
    logic [127:0]   st_d [NST];
    logic [127:0]   mk_q [NST];
    logic [127:0]   mk_d [NST];
    logic [255:0]   win_c [NST];  // key window after stage i's step (index 0: initial)
    logic [NST-1:0] v_q, v_d;
    logic           dec_q, dec_d, kgen_q, kgen_d;
    logic           adv, accept, empty, bwd;
    logic [127:0]   rk0;

    // The key registers load key_i themselves; the ksel_q choice ahead is the iterative core's.
    logic unused_key_in;
    assign unused_key_in = ^{key_in, klen_d};

    // Round-key chain: static while blocks are in flight, forward during derivation.
    assign bwd          = dec_q & ~kgen_q;
    assign win_c[0] = bwd ? dkey_q : key_q;

    for (genvar i = 0; i < NR_TOP; i++) begin : gen_stage
      logic [4:0]   q;
      logic         en;
      logic [3:0]   step;
      logic [255:0] win_in, kw, win_out;
      logic [127:0] rs;

      if (i == 0) begin : gen_first
        assign win_in = bwd ? dkey_q : key_q;
      end else begin : gen_chain
        assign win_in = gen_stage[i - 1].win_out;
      end

      assign q    = 5'(i + 1);
      assign en   = q <= {1'b0, nr};
      assign step = bwd ? 4'({1'b0, nr} - q) : 4'(i);

      aes_key_expand #(
        .KeyLenMax(KeyLenMax),
        .DecEnable(DecEnable),
        .SBoxImpl (SBoxImpl)
      ) u_key_expand (
        .key_len_i(klen_q),
        .bwd_i    (bwd),
        .step_i   (step),
        .win_i    (win_in),
        .sub_i    (32'h0),
        .sel_i    (6'h0),
        .win_o    (kw)
      );

      logic [127:0] unused_sub;
      aes_round #(
        .DecEnable(DecEnable),
        .SBoxImpl (SBoxImpl)
      ) u_round (
        .state_i(st_q[i]),
        .rk_i   (kw[255:128]),
        .dec_i  (dec_q),
        .final_i(q == {1'b0, nr}),
        .sub_i  ('0),
        .sub_o  (unused_sub),
        .state_o(rs)
      );

      assign win_out      = (en ? kw : win_in) & KEY_KEEP;
      assign win_c[i + 1] = win_out;
      assign st_d[i + 1]  = rs;
      assign mk_d[i + 1]  = mk_q[i];
      assign v_d[i + 1]   = v_q[i] & en;
    end

    always_comb begin
      empty       = 1'b1;
      out_valid_o = 1'b0;
      out_data_o  = '0;
      dkey_new    = '0;
      for (int i = 0; i < NST; i++) begin
        if (i <= 32'(nr)) begin
          empty = empty & ~v_q[i];
        end
        if (i == 32'(nr)) begin
          out_valid_o = v_q[i];
          out_data_o  = st_q[i] ^ mk_q[i];
          dkey_new    = win_c[i];
        end
      end
    end

    assign adv          = ~out_valid_o | out_ready_i;
    assign in_ready_o   = adv & key_ready_o & ~kgen_q & ~key_load & (empty | (in_dec_i == dec_q));
    assign accept       = in_valid_i & in_ready_o;
    assign key_load     = key_we_i & empty & ~kgen_q;
    assign kgen_d       = key_load & DecEnable;
    assign dkey_load    = kgen_q;
    assign dec_d        = accept ? (DecEnable & in_dec_i) : dec_q;
    assign rk0          = dec_d ? dkey_q[255:128] : key_q[255:128];
    assign st_d[0]      = in_block_i ^ rk0;
    assign mk_d[0]      = in_mask_i;
    assign v_d[0]       = accept;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int i = 0; i < NST; i++) begin
          st_q[i] <= '0;
          mk_q[i] <= '0;
        end
        v_q    <= '0;
        dec_q  <= 1'b0;
        kgen_q <= 1'b0;
      end else if (clear_i) begin
        for (int i = 0; i < NST; i++) begin
          st_q[i] <= '0;
          mk_q[i] <= '0;
        end
        v_q    <= '0;
        dec_q  <= 1'b0;
        kgen_q <= 1'b0;
      end else begin
        kgen_q <= kgen_d;
        dec_q  <= dec_d;
        if (key_load) begin
          v_q <= '0;
        end else if (adv) begin
          v_q <= v_d;
          // A stage only loads when a block enters it, so empty stages keep no fresh data.
          for (int i = 0; i < NST; i++) begin
            if (v_d[i]) begin
              st_q[i] <= st_d[i];
              mk_q[i] <= mk_d[i];
            end
          end
        end
      end
    end

    assign busy_o = ~empty | kgen_q;

`ifdef ASSERT_ON
    // A waiting result stalls the whole pipeline, so it stays put until taken.
    OutHold_A: assert property (@(posedge clk_i) out_valid_o && !out_ready_i |-> !adv && !key_load);
`endif
  end

  ////////////////
  // Assertions //
  ////////////////

  // Written without rst_ni (which Verilator would flag as used both asynchronously and
  // synchronously): each property also holds while the registers are held in reset. The
  // datapath branches above state OutHold_A on their own next-state logic.
`ifdef ASSERT_ON
  // No block is accepted without a usable key.
  AcceptNeedsKey_A: assert property (@(posedge clk_i)
      in_valid_i && in_ready_o |-> key_ready_o);
  // Round keys stay still while blocks are in flight: no key write is taken while busy.
  KeyLoadIdle_A: assert property (@(posedge clk_i) key_load |-> !busy_o);
  // A key write and a block are never taken together.
  KeyOrBlock_A: assert property (@(posedge clk_i) !(key_load && in_valid_i && in_ready_o));
`endif

endmodule

`default_nettype wire
