/* placeholder */ int gauss_render_cmd_placeholder;
