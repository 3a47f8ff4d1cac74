// SPDX-License-Identifier: Apache-2.0
// XIP flash controller: Wishbone flash window and register slave around xip_core and the unwrap.
`default_nettype none

// Two Wishbone B4 classic slaves:
//   wb_*  the flash window (0x2000_0000, cached, and its alias 0xA000_0000: the controller only
//         looks at the low word-address bits, so both views are the same). Reads of any width
//         return the whole word; single reads and incrementing bursts are served alike, one beat
//         per ready word. Writes end in ERR.
//   reg_* the register block generated from data/xip.rdl (4 KB window, ACK in the STB cycle).
// otp_kek_i is the key-encryption key from OTP: it only ever reaches the unwrap engine.
module xip #(
  parameter int unsigned FlashBytes       = 16 * 1024 * 1024,  // power of two, at most 16 MB
  parameter int unsigned PrefetchWords    = 16,                // 16 words = 2 x 32-byte lines
  parameter int unsigned KsRoundsPerCycle = 1                  // keystream AES core
) (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,

  input  wire logic         wb_cyc_i,
  input  wire logic         wb_stb_i,
  input  wire logic         wb_we_i,
  input  wire logic [29:0]  wb_adr_i,
  input  wire logic [31:0]  wb_dat_i,
  input  wire logic [3:0]   wb_sel_i,
  input  wire logic [2:0]   wb_cti_i,
  input  wire logic [1:0]   wb_bte_i,
  output logic      [31:0]  wb_dat_o,
  output logic              wb_ack_o,
  output logic              wb_err_o,

  input  wire logic         reg_cyc_i,
  input  wire logic         reg_stb_i,
  input  wire logic         reg_we_i,
  input  wire logic [9:0]   reg_adr_i,
  input  wire logic [31:0]  reg_dat_i,
  input  wire logic [3:0]   reg_sel_i,
  output logic      [31:0]  reg_dat_o,
  output logic              reg_ack_o,
  output logic              reg_err_o,

  /* verilator tracing_off */
  input  wire logic [127:0] otp_kek_i,
  /* verilator tracing_on */

  output logic              flash_sck_o,
  output logic              flash_cs_no,
  output logic      [3:0]   flash_io_o,
  output logic      [3:0]   flash_io_oe_o,
  input  wire logic [3:0]   flash_io_i
);

  localparam int unsigned AW = $clog2(FlashBytes / 4);

  // Register block.
  logic         reg_ack, reg_err, reg_stall;
  logic [7:0]   cfg_div;
  logic [3:0]   cfg_dummy;
  logic [1:0]   cfg_cmd;
  logic         cfg_cont;
  logic [3:0]   cfg_mod;
  logic         ctrl_flush, ctrl_clr_stats;
  logic [191:0] blob_le;
  logic [1:0]   unwrap_ctx;
  logic         unwrap_go;
  logic         unwrap_err_q, lock_err_q;  // register copies, not needed here
  logic [3:0]   ctx_en, ctx_lock;
  logic [55:0]  ctx_start;
  logic [59:0]  ctx_end;
  logic [255:0] nonce_le, nonce;
  logic [19:0]  ctx_mod;

  // Core.
  logic         core_busy, core_cont, stat_hit, stat_wait, stat_miss;
  logic [3:0]   key_valid, ctx_active;
  logic [31:0]  hits_q, waits_q, misses_q;

  // Unwrap.
  logic         kw_start, kw_busy, kw_done, kw_ok;
  /* verilator tracing_off */
  logic [127:0] kw_key;
  /* verilator tracing_on */
  logic [191:0] blob;
  logic [1:0]   kw_ctx_q;
  logic         lock_err_set;
  logic         flush;

  xip_reg u_reg (
    .clk                                  (clk_i),
    .arst_n                               (rst_ni),
    .wb_cyc                               (reg_cyc_i),
    .wb_stb                               (reg_stb_i),
    .wb_we                                (reg_we_i),
    .wb_stall                             (reg_stall),
    .wb_adr                               ({reg_adr_i, 2'b00}),
    .wb_odat                              (reg_dat_i),
    .wb_sel                               (reg_sel_i),
    .wb_ack                               (reg_ack),
    .wb_err                               (reg_err),
    .wb_idat                              (reg_dat_o),
    .hwif_out_cfg_div                     (cfg_div),
    .hwif_out_cfg_div_swmod               (cfg_mod[0]),
    .hwif_out_cfg_dummy                   (cfg_dummy),
    .hwif_out_cfg_dummy_swmod             (cfg_mod[1]),
    .hwif_out_cfg_cmd                     (cfg_cmd),
    .hwif_out_cfg_cmd_swmod               (cfg_mod[2]),
    .hwif_out_cfg_cont                    (cfg_cont),
    .hwif_out_cfg_cont_swmod              (cfg_mod[3]),
    .hwif_out_ctrl_flush                  (ctrl_flush),
    .hwif_out_ctrl_clr_stats              (ctrl_clr_stats),
    .hwif_in_status_busy                  (core_busy),
    .hwif_in_status_cont                  (core_cont),
    .hwif_in_hits_count                   (hits_q),
    .hwif_in_waits_count                  (waits_q),
    .hwif_in_misses_count                 (misses_q),
    .hwif_out_keyblob0_data             (blob_le[0 +: 32]),
    .hwif_out_keyblob1_data             (blob_le[32 +: 32]),
    .hwif_out_keyblob2_data             (blob_le[64 +: 32]),
    .hwif_out_keyblob3_data             (blob_le[96 +: 32]),
    .hwif_out_keyblob4_data             (blob_le[128 +: 32]),
    .hwif_out_keyblob5_data             (blob_le[160 +: 32]),
    .hwif_out_unwrap_ctx                  (unwrap_ctx),
    .hwif_out_unwrap_go                   (unwrap_go),
    .hwif_in_otfad_status_busy            (kw_busy | unwrap_go),
    .hwif_out_otfad_status_unwrap_err     (unwrap_err_q),
    .hwif_in_otfad_status_unwrap_err_hwset(kw_done & ~kw_ok),
    .hwif_out_otfad_status_lock_err       (lock_err_q),
    .hwif_in_otfad_status_lock_err_hwset  (lock_err_set),
    .hwif_in_otfad_status_key_valid       (key_valid),
    .hwif_in_otfad_status_active          (ctx_active),
    .hwif_out_ctx0_ctrl_en              (ctx_en[0]),
    .hwif_out_ctx0_ctrl_en_swmod        (ctx_mod[0]),
    .hwif_in_ctx0_ctrl_en_swwel         (ctx_lock[0]),
    .hwif_out_ctx0_ctrl_lock            (ctx_lock[0]),
    .hwif_out_ctx0_start_addr           (ctx_start[0 +: 14]),
    .hwif_out_ctx0_start_addr_swmod     (ctx_mod[1]),
    .hwif_in_ctx0_start_addr_swwel      (ctx_lock[0]),
    .hwif_out_ctx0_end_addr             (ctx_end[0 +: 15]),
    .hwif_out_ctx0_end_addr_swmod       (ctx_mod[2]),
    .hwif_in_ctx0_end_addr_swwel        (ctx_lock[0]),
    .hwif_out_ctx0_nonce0_data          (nonce_le[0 +: 32]),
    .hwif_out_ctx0_nonce0_data_swmod    (ctx_mod[3]),
    .hwif_in_ctx0_nonce0_data_swwel     (ctx_lock[0]),
    .hwif_out_ctx0_nonce1_data          (nonce_le[32 +: 32]),
    .hwif_out_ctx0_nonce1_data_swmod    (ctx_mod[4]),
    .hwif_in_ctx0_nonce1_data_swwel     (ctx_lock[0]),
    .hwif_out_ctx1_ctrl_en              (ctx_en[1]),
    .hwif_out_ctx1_ctrl_en_swmod        (ctx_mod[5]),
    .hwif_in_ctx1_ctrl_en_swwel         (ctx_lock[1]),
    .hwif_out_ctx1_ctrl_lock            (ctx_lock[1]),
    .hwif_out_ctx1_start_addr           (ctx_start[14 +: 14]),
    .hwif_out_ctx1_start_addr_swmod     (ctx_mod[6]),
    .hwif_in_ctx1_start_addr_swwel      (ctx_lock[1]),
    .hwif_out_ctx1_end_addr             (ctx_end[15 +: 15]),
    .hwif_out_ctx1_end_addr_swmod       (ctx_mod[7]),
    .hwif_in_ctx1_end_addr_swwel        (ctx_lock[1]),
    .hwif_out_ctx1_nonce0_data          (nonce_le[64 +: 32]),
    .hwif_out_ctx1_nonce0_data_swmod    (ctx_mod[8]),
    .hwif_in_ctx1_nonce0_data_swwel     (ctx_lock[1]),
    .hwif_out_ctx1_nonce1_data          (nonce_le[96 +: 32]),
    .hwif_out_ctx1_nonce1_data_swmod    (ctx_mod[9]),
    .hwif_in_ctx1_nonce1_data_swwel     (ctx_lock[1]),
    .hwif_out_ctx2_ctrl_en              (ctx_en[2]),
    .hwif_out_ctx2_ctrl_en_swmod        (ctx_mod[10]),
    .hwif_in_ctx2_ctrl_en_swwel         (ctx_lock[2]),
    .hwif_out_ctx2_ctrl_lock            (ctx_lock[2]),
    .hwif_out_ctx2_start_addr           (ctx_start[28 +: 14]),
    .hwif_out_ctx2_start_addr_swmod     (ctx_mod[11]),
    .hwif_in_ctx2_start_addr_swwel      (ctx_lock[2]),
    .hwif_out_ctx2_end_addr             (ctx_end[30 +: 15]),
    .hwif_out_ctx2_end_addr_swmod       (ctx_mod[12]),
    .hwif_in_ctx2_end_addr_swwel        (ctx_lock[2]),
    .hwif_out_ctx2_nonce0_data          (nonce_le[128 +: 32]),
    .hwif_out_ctx2_nonce0_data_swmod    (ctx_mod[13]),
    .hwif_in_ctx2_nonce0_data_swwel     (ctx_lock[2]),
    .hwif_out_ctx2_nonce1_data          (nonce_le[160 +: 32]),
    .hwif_out_ctx2_nonce1_data_swmod    (ctx_mod[14]),
    .hwif_in_ctx2_nonce1_data_swwel     (ctx_lock[2]),
    .hwif_out_ctx3_ctrl_en              (ctx_en[3]),
    .hwif_out_ctx3_ctrl_en_swmod        (ctx_mod[15]),
    .hwif_in_ctx3_ctrl_en_swwel         (ctx_lock[3]),
    .hwif_out_ctx3_ctrl_lock            (ctx_lock[3]),
    .hwif_out_ctx3_start_addr           (ctx_start[42 +: 14]),
    .hwif_out_ctx3_start_addr_swmod     (ctx_mod[16]),
    .hwif_in_ctx3_start_addr_swwel      (ctx_lock[3]),
    .hwif_out_ctx3_end_addr             (ctx_end[45 +: 15]),
    .hwif_out_ctx3_end_addr_swmod       (ctx_mod[17]),
    .hwif_in_ctx3_end_addr_swwel        (ctx_lock[3]),
    .hwif_out_ctx3_nonce0_data          (nonce_le[192 +: 32]),
    .hwif_out_ctx3_nonce0_data_swmod    (ctx_mod[18]),
    .hwif_in_ctx3_nonce0_data_swwel     (ctx_lock[3]),
    .hwif_out_ctx3_nonce1_data          (nonce_le[224 +: 32]),
    .hwif_out_ctx3_nonce1_data_swmod    (ctx_mod[19]),
    .hwif_in_ctx3_nonce1_data_swwel     (ctx_lock[3])
  );

  // The generated block raises ACK together with ERR on a bad access; a master must see one.
  assign reg_ack_o = reg_ack & ~reg_err;
  assign reg_err_o = reg_err;

  // Registers hold memory-order words (byte 0 in bits [7:0]); AES wants byte 0 on top.
  for (genvar i = 0; i < 6; i++) begin : gen_blob
    assign blob[191 - 32 * i -: 32] = aes_pkg::bswap(blob_le[32 * i +: 32]);
  end
  for (genvar c = 0; c < 4; c++) begin : gen_nonce
    assign nonce[64 * c +: 64] = {aes_pkg::bswap(nonce_le[64 * c +: 32]), aes_pkg::bswap(nonce_le[64 * c + 32 +: 32])};
  end

  // Key unwrap: refused for a locked context, ignored while one runs.
  assign kw_start     = unwrap_go & ~kw_busy & ~ctx_lock[unwrap_ctx];
  assign lock_err_set = unwrap_go & ~kw_busy & ctx_lock[unwrap_ctx];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kw_ctx_q <= '0;
    end else if (kw_start) begin
      kw_ctx_q <= unwrap_ctx;
    end
  end

  xip_keywrap u_keywrap (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .kek_i   (otp_kek_i),
    .start_i (kw_start),
    .blob_i  (blob),
    .busy_o  (kw_busy),
    .done_o  (kw_done),
    .ok_o    (kw_ok),
    .key_o   (kw_key)
  );

  // Anything that changes what a flash word reads as empties the prefetch buffer.
  assign flush = ctrl_flush | (|cfg_mod) | (|ctx_mod) | kw_done;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hits_q   <= '0;
      waits_q  <= '0;
      misses_q <= '0;
    end else if (ctrl_clr_stats) begin
      hits_q   <= '0;
      waits_q  <= '0;
      misses_q <= '0;
    end else begin
      hits_q   <= hits_q + {31'b0, stat_hit};
      waits_q  <= waits_q + {31'b0, stat_wait};
      misses_q <= misses_q + {31'b0, stat_miss};
    end
  end

  xip_core #(
    .FlashBytes       (FlashBytes),
    .PrefetchWords    (PrefetchWords),
    .KsRoundsPerCycle (KsRoundsPerCycle)
  ) u_core (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .req_i        (wb_cyc_i & wb_stb_i & ~wb_we_i),
    .req_addr_i   (wb_adr_i[AW-1:0]),
    .ack_o        (wb_ack_o),
    .rdata_o      (wb_dat_o),
    .cfg_div_i    (cfg_div),
    .cfg_dummy_i  (cfg_dummy),
    .cfg_cmd_i    (cfg_cmd),
    .cfg_cont_i   (cfg_cont),
    .flush_i      (flush),
    .ctx_en_i     (ctx_en),
    .ctx_start_i  (ctx_start),
    .ctx_end_i    (ctx_end),
    .ctx_nonce_i  (nonce),
    .key_we_i     (kw_done),
    .key_ctx_i    (kw_ctx_q),
    .key_ok_i     (kw_ok),
    .key_i        (kw_key),
    .key_valid_o  (key_valid),
    .ctx_active_o (ctx_active),
    .busy_o       (core_busy),
    .cont_o       (core_cont),
    .stat_hit_o   (stat_hit),
    .stat_wait_o  (stat_wait),
    .stat_miss_o  (stat_miss),
    .sck_o        (flash_sck_o),
    .cs_no        (flash_cs_no),
    .io_o         (flash_io_o),
    .io_oe_o      (flash_io_oe_o),
    .io_i         (flash_io_i)
  );

  // Writes to the flash window end in ERR.
  assign wb_err_o = wb_cyc_i & wb_stb_i & wb_we_i;

  logic unused;
  assign unused = ^{wb_adr_i[29:AW], wb_dat_i, wb_sel_i, wb_cti_i, wb_bte_i, reg_stall,
                    unwrap_err_q, lock_err_q};

endmodule

`default_nettype wire
