/* The OpenGL entry points the renderer calls, loaded at run time from the active back end (EGL or
 * OSMesa) so that no GL library is linked: X(return type, name, parameters). */
#ifndef GAUSS_RENDER_GL_FUNCS_H
#define GAUSS_RENDER_GL_FUNCS_H

#define GL_GLEXT_PROTOTYPES 0
#include <GL/glcorearb.h>

#define GSR_GL_FUNCS(X)                                                                            \
  X(void, glGetIntegerv, (GLenum, GLint*))                                                         \
  X(const GLubyte*, glGetString, (GLenum))                                                         \
  X(GLenum, glGetError, (void))                                                                    \
  X(void, glViewport, (GLint, GLint, GLsizei, GLsizei))                                            \
  X(void, glClearColor, (GLfloat, GLfloat, GLfloat, GLfloat))                                      \
  X(void, glClear, (GLbitfield))                                                                   \
  X(void, glEnable, (GLenum))                                                                      \
  X(void, glDisable, (GLenum))                                                                     \
  X(void, glBlendFunc, (GLenum, GLenum))                                                           \
  X(void, glDepthMask, (GLboolean))                                                                \
  X(void, glDepthFunc, (GLenum))                                                                   \
  X(void, glCullFace, (GLenum))                                                                    \
  X(void, glPolygonOffset, (GLfloat, GLfloat))                                                     \
  X(void, glReadPixels, (GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void*))                   \
  X(void, glReadBuffer, (GLenum))                                                                  \
  X(void, glPixelStorei, (GLenum, GLint))                                                          \
  X(void, glFinish, (void))                                                                        \
  X(void, glGenFramebuffers, (GLsizei, GLuint*))                                                   \
  X(void, glDeleteFramebuffers, (GLsizei, const GLuint*))                                          \
  X(void, glBindFramebuffer, (GLenum, GLuint))                                                     \
  X(void, glFramebufferRenderbuffer, (GLenum, GLenum, GLenum, GLuint))                             \
  X(GLenum, glCheckFramebufferStatus, (GLenum))                                                    \
  X(void, glGenRenderbuffers, (GLsizei, GLuint*))                                                  \
  X(void, glDeleteRenderbuffers, (GLsizei, const GLuint*))                                         \
  X(void, glBindRenderbuffer, (GLenum, GLuint))                                                    \
  X(void, glRenderbufferStorage, (GLenum, GLenum, GLsizei, GLsizei))                               \
  X(void, glRenderbufferStorageMultisample, (GLenum, GLsizei, GLenum, GLsizei, GLsizei))           \
  X(void, glFramebufferTexture2D, (GLenum, GLenum, GLenum, GLuint, GLint))                        \
  X(void, glBlitFramebuffer, (GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield, GLenum)) \
  X(void, glDrawBuffers, (GLsizei, const GLenum*))                                                 \
  X(void, glGenBuffers, (GLsizei, GLuint*))                                                        \
  X(void, glDeleteBuffers, (GLsizei, const GLuint*))                                               \
  X(void, glBindBuffer, (GLenum, GLuint))                                                          \
  X(void, glBufferData, (GLenum, GLsizeiptr, const void*, GLenum))                                 \
  X(void, glGenVertexArrays, (GLsizei, GLuint*))                                                   \
  X(void, glDeleteVertexArrays, (GLsizei, const GLuint*))                                          \
  X(void, glBindVertexArray, (GLuint))                                                             \
  X(void, glEnableVertexAttribArray, (GLuint))                                                     \
  X(void, glVertexAttribPointer, (GLuint, GLint, GLenum, GLboolean, GLsizei, const void*))         \
  X(void, glDrawArrays, (GLenum, GLint, GLsizei))                                                  \
  X(void, glDrawElements, (GLenum, GLsizei, GLenum, const void*))                                  \
  X(GLuint, glCreateShader, (GLenum))                                                              \
  X(void, glShaderSource, (GLuint, GLsizei, const GLchar* const*, const GLint*))                   \
  X(void, glCompileShader, (GLuint))                                                               \
  X(void, glGetShaderiv, (GLuint, GLenum, GLint*))                                                 \
  X(void, glGetShaderInfoLog, (GLuint, GLsizei, GLsizei*, GLchar*))                                \
  X(void, glDeleteShader, (GLuint))                                                                \
  X(GLuint, glCreateProgram, (void))                                                               \
  X(void, glAttachShader, (GLuint, GLuint))                                                        \
  X(void, glBindAttribLocation, (GLuint, GLuint, const GLchar*))                                   \
  X(void, glBindFragDataLocation, (GLuint, GLuint, const GLchar*))                                 \
  X(void, glLinkProgram, (GLuint))                                                                 \
  X(void, glGetProgramiv, (GLuint, GLenum, GLint*))                                                \
  X(void, glGetProgramInfoLog, (GLuint, GLsizei, GLsizei*, GLchar*))                               \
  X(void, glDeleteProgram, (GLuint))                                                               \
  X(void, glUseProgram, (GLuint))                                                                  \
  X(GLint, glGetUniformLocation, (GLuint, const GLchar*))                                          \
  X(void, glUniform1i, (GLint, GLint))                                                             \
  X(void, glUniform1f, (GLint, GLfloat))                                                           \
  X(void, glUniform2fv, (GLint, GLsizei, const GLfloat*))                                          \
  X(void, glUniform3fv, (GLint, GLsizei, const GLfloat*))                                          \
  X(void, glUniform4fv, (GLint, GLsizei, const GLfloat*))                                          \
  X(void, glUniform1iv, (GLint, GLsizei, const GLint*))                                            \
  X(void, glUniform1fv, (GLint, GLsizei, const GLfloat*))                                          \
  X(void, glUniformMatrix4fv, (GLint, GLsizei, GLboolean, const GLfloat*))                         \
  X(void, glUniformMatrix3fv, (GLint, GLsizei, GLboolean, const GLfloat*))                         \
  X(void, glGenTextures, (GLsizei, GLuint*))                                                       \
  X(void, glDeleteTextures, (GLsizei, const GLuint*))                                              \
  X(void, glBindTexture, (GLenum, GLuint))                                                         \
  X(void, glActiveTexture, (GLenum))                                                               \
  X(void, glTexImage2D, (GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void*)) \
  X(void, glTexParameteri, (GLenum, GLenum, GLint))                                                \
  X(void, glGenerateMipmap, (GLenum))                                                              \
  X(void, glStencilFunc, (GLenum, GLint, GLuint))                                                  \
  X(void, glStencilOp, (GLenum, GLenum, GLenum))                                                   \
  X(void, glStencilMask, (GLuint))                                                                 \
  X(void, glColorMask, (GLboolean, GLboolean, GLboolean, GLboolean))                               \
  X(void, glFrontFace, (GLenum))                                                                   \
  X(void, glUniform4f, (GLint, GLfloat, GLfloat, GLfloat, GLfloat))

typedef struct {
#define GSR_GL_PTR(ret, name, args) ret(APIENTRY* name) args;
  GSR_GL_FUNCS(GSR_GL_PTR)
#undef GSR_GL_PTR
} gsrGL;

#endif
