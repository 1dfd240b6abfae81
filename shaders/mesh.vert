#version 330 core
// Lit bodies, anchors and force arrows: world-space position and normal for the fragment shader.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_model;
uniform mat4 u_viewProjection;
out vec3 v_normal;
out vec3 v_world;
void main()
{
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world = world.xyz;
    v_normal = transpose(inverse(mat3(u_model))) * a_normal;
    gl_Position = u_viewProjection * world;
}
