/* cairo and fontconfig, loaded when the first figure is drawn (cairolib.h; doc/architecture.md,
 * "Libraries loaded when used"): each function the figures call is defined here with
 * cairo's own prototype (the compiler checks it against cairo's headers) and calls
 * cairo's, found once by name. Linked, cairo and the libraries under it (X11's among
 * them: some twenty) cost every process a few milliseconds of loading, which no mode
 * but the figures' needs. */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include "figure/cairolib.h"
#include "gatetui/libset.h"

enum { LIB_CAIRO, LIB_FONTCONFIG };
/* their names as Debian installs them (configure.ac) */
static const char *const soname[] = {GT_SONAME_CAIRO, GT_SONAME_FONTCONFIG, NULL};
static gt_libset cairolib = LIBSET(soname, NULL, NULL);

int cairolib_load(gt_error *e)
{
    return libset_load(&cairolib, e);
}

#define REAL(lib, name) LIBSET_REAL(&cairolib, lib, name)

void cairo_arc(cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2)
{
    REAL(LIB_CAIRO, cairo_arc)(cr, xc, yc, radius, angle1, angle2);
}

void cairo_clip(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_clip)(cr);
}

void cairo_close_path(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_close_path)(cr);
}

cairo_t *cairo_create(cairo_surface_t *target)
{
    return REAL(LIB_CAIRO, cairo_create)(target);
}

void cairo_debug_reset_static_data(void)
{
    REAL(LIB_CAIRO, cairo_debug_reset_static_data)();
}

void cairo_destroy(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_destroy)(cr);
}

void cairo_fill(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_fill)(cr);
}

void cairo_font_extents(cairo_t *cr, cairo_font_extents_t *extents)
{
    REAL(LIB_CAIRO, cairo_font_extents)(cr, extents);
}

cairo_bool_t cairo_has_current_point(cairo_t *cr)
{
    return REAL(LIB_CAIRO, cairo_has_current_point)(cr);
}

cairo_surface_t *cairo_image_surface_create(cairo_format_t format, int width, int height)
{
    return REAL(LIB_CAIRO, cairo_image_surface_create)(format, width, height);
}

void cairo_line_to(cairo_t *cr, double x, double y)
{
    REAL(LIB_CAIRO, cairo_line_to)(cr, x, y);
}

void cairo_move_to(cairo_t *cr, double x, double y)
{
    REAL(LIB_CAIRO, cairo_move_to)(cr, x, y);
}

void cairo_new_path(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_new_path)(cr);
}

void cairo_new_sub_path(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_new_sub_path)(cr);
}

void cairo_paint(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_paint)(cr);
}

cairo_surface_t *cairo_pdf_surface_create_for_stream(cairo_write_func_t write_func, void *closure,
                                                     double width_in_points,
                                                     double height_in_points)
{
    return REAL(LIB_CAIRO, cairo_pdf_surface_create_for_stream)(write_func, closure, width_in_points,
        height_in_points);
}

void cairo_pdf_surface_set_metadata(cairo_surface_t *surface, cairo_pdf_metadata_t metadata,
                                    const char *utf8)
{
    REAL(LIB_CAIRO, cairo_pdf_surface_set_metadata)(surface, metadata, utf8);
}

void cairo_rectangle(cairo_t *cr, double x, double y, double width, double height)
{
    REAL(LIB_CAIRO, cairo_rectangle)(cr, x, y, width, height);
}

void cairo_restore(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_restore)(cr);
}

void cairo_rotate(cairo_t *cr, double angle)
{
    REAL(LIB_CAIRO, cairo_rotate)(cr, angle);
}

void cairo_save(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_save)(cr);
}

void cairo_scale(cairo_t *cr, double sx, double sy)
{
    REAL(LIB_CAIRO, cairo_scale)(cr, sx, sy);
}

void cairo_select_font_face(cairo_t *cr, const char *family, cairo_font_slant_t slant,
                            cairo_font_weight_t weight)
{
    REAL(LIB_CAIRO, cairo_select_font_face)(cr, family, slant, weight);
}

void cairo_set_dash(cairo_t *cr, const double *dashes, int num_dashes, double offset)
{
    REAL(LIB_CAIRO, cairo_set_dash)(cr, dashes, num_dashes, offset);
}

void cairo_set_font_size(cairo_t *cr, double size)
{
    REAL(LIB_CAIRO, cairo_set_font_size)(cr, size);
}

void cairo_set_line_join(cairo_t *cr, cairo_line_join_t line_join)
{
    REAL(LIB_CAIRO, cairo_set_line_join)(cr, line_join);
}

void cairo_set_line_width(cairo_t *cr, double width)
{
    REAL(LIB_CAIRO, cairo_set_line_width)(cr, width);
}

void cairo_set_source_rgb(cairo_t *cr, double red, double green, double blue)
{
    REAL(LIB_CAIRO, cairo_set_source_rgb)(cr, red, green, blue);
}

void cairo_show_text(cairo_t *cr, const char *utf8)
{
    REAL(LIB_CAIRO, cairo_show_text)(cr, utf8);
}

cairo_status_t cairo_status(cairo_t *cr)
{
    return REAL(LIB_CAIRO, cairo_status)(cr);
}

const char *cairo_status_to_string(cairo_status_t status)
{
    return REAL(LIB_CAIRO, cairo_status_to_string)(status);
}

void cairo_stroke(cairo_t *cr)
{
    REAL(LIB_CAIRO, cairo_stroke)(cr);
}

void cairo_surface_destroy(cairo_surface_t *surface)
{
    REAL(LIB_CAIRO, cairo_surface_destroy)(surface);
}

void cairo_surface_finish(cairo_surface_t *surface)
{
    REAL(LIB_CAIRO, cairo_surface_finish)(surface);
}

cairo_status_t cairo_surface_status(cairo_surface_t *surface)
{
    return REAL(LIB_CAIRO, cairo_surface_status)(surface);
}

cairo_status_t cairo_surface_write_to_png_stream(cairo_surface_t *surface,
                                                 cairo_write_func_t write_func, void *closure)
{
    return REAL(LIB_CAIRO, cairo_surface_write_to_png_stream)(surface, write_func, closure);
}

cairo_surface_t *cairo_svg_surface_create_for_stream(cairo_write_func_t write_func, void *closure,
                                                     double width_in_points,
                                                     double height_in_points)
{
    return REAL(LIB_CAIRO, cairo_svg_surface_create_for_stream)(write_func, closure, width_in_points,
        height_in_points);
}

void cairo_svg_surface_restrict_to_version(cairo_surface_t *surface, cairo_svg_version_t version)
{
    REAL(LIB_CAIRO, cairo_svg_surface_restrict_to_version)(surface, version);
}

void cairo_text_extents(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents)
{
    REAL(LIB_CAIRO, cairo_text_extents)(cr, utf8, extents);
}

void cairo_translate(cairo_t *cr, double tx, double ty)
{
    REAL(LIB_CAIRO, cairo_translate)(cr, tx, ty);
}

void FcFini(void)
{
    REAL(LIB_FONTCONFIG, FcFini)();
}
